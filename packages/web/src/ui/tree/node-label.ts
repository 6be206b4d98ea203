// Root names and the settings entries are shown in the user's language (spec §2 'Folder tree');
// every other node by its own name.
import type { folderTypes, NodeType } from '@photorelay/contract/folders';
import { useTranslation } from 'react-i18next';
import type { FolderNode } from '../../api/folders.ts';

type LabelledType = Extract<NodeType, (typeof folderTypes)[number] | 'users' | 'configfiles'>;
const labelledTypes = new Set<string>([
  'projects',
  'ftpservers',
  'calendars',
  'settings',
  'folders',
  'users',
  'configfiles',
] satisfies LabelledType[]);
const leafLabelTypes = new Set<string>(['users', 'configfiles'] satisfies LabelledType[]);

const isLabelled = (type: string): type is LabelledType => labelledTypes.has(type);

export function useNodeLabel() {
  const { t } = useTranslation('shell');
  return (node: Pick<FolderNode, 'isRoot' | 'type' | 'name'>) =>
    (node.isRoot || leafLabelTypes.has(node.type)) && isLabelled(node.type)
      ? t(`tree.labels.${node.type}`)
      : node.name;
}
