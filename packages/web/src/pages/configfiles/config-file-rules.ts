// Spec §5 'Config file upload': a file with an existing name replaces it (its id is sent).
import type { ConfigFile } from '../../api/configfiles.ts';

/** The id of the stored file an upload with this name replaces; names compare case-insensitively. */
export const replacedFileId = (files: readonly Pick<ConfigFile, 'name' | 'dbconfigfileid'>[], name: string) =>
  files.find((file) => file.name.toLowerCase() === name.toLowerCase())?.dbconfigfileid;
