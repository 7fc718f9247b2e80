/** Why a file could not be written, in words, for the errno codes people meet. */
const WRITE_PROBLEMS: Readonly<Record<string, string>> = {
  ENOENT: 'its folder does not exist',
  ENOTDIR: 'a part of its path is a file, not a folder',
  EISDIR: 'it is a folder',
  EACCES: 'permission denied',
  EPERM: 'permission denied',
  EROFS: 'the file system is read-only',
  ENOSPC: 'the disk is full',
};

export function writeProblem(error: unknown): string {
  const code = (error as NodeJS.ErrnoException | undefined)?.code ?? '';
  return WRITE_PROBLEMS[code] ?? (code === '' ? 'unknown error' : code.toLowerCase());
}
