export declare const layers: Record<string, { may: string[]; why: string }>;
export declare const entryFiles: string[];
export declare const forbiddenModules: { name: string; message: string }[];
