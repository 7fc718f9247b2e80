export declare const layers: Record<string, { may: string[]; why: string }>;
export declare const entryFiles: string[];
