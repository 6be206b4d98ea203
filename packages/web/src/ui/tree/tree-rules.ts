// The drawer tree's context menu as pure rules (spec §2 'Tree context menu', 'Moving').

import { limits } from '@photorelay/contract/limits';
import type { FolderNode } from '../../api/folders.ts';

export type TreeAction =
  | 'newProject'
  | 'newFtpServer'
  | 'newFolder'
  | 'rename'
  | 'move'
  | 'place'
  | 'cancelMove'
  | 'delete';

/** What can be moved, renamed and deleted, and under which call. */
export type ItemKind = 'folder' | 'project' | 'ftpserver';

/** Folders of these trees hold projects or FTP servers and sub-folders; the others are fixed. */
const editableTrees = new Set(['projects', 'ftpservers']);

export const isFolder = (node: FolderNode) => node.folderType !== null;

/** The kind of an item the menu can rename, move or delete; null for everything else. */
export function itemKind(node: FolderNode): ItemKind | null {
  if (node.type === 'project') return 'project';
  if (node.type === 'ftpserver') return 'ftpserver';
  if (isFolder(node) && editableTrees.has(node.folderType ?? '')) return 'folder';
  return null;
}

/** The folder type a node belongs in: projects live in 'projects' folders, and so on. */
export function homeFolderType(node: FolderNode): string | null {
  if (node.type === 'project') return 'projects';
  if (node.type === 'ftpserver') return 'ftpservers';
  return node.folderType;
}

/** Whether `key` is `node` itself or somewhere below it. */
export function containsKey(node: FolderNode, key: string): boolean {
  return node.key === key || node.children.some((child) => containsKey(child, key));
}

/**
 * Spec §2 'Moving': only into a folder of the same type, never into the item itself or one of
 * its descendants. Its current folder is no target either (nothing would change), and the
 * member needs write access to the target.
 */
export function canPlace(item: FolderNode, target: FolderNode): boolean {
  if (!isFolder(target) || !target.canWrite) return false;
  if (homeFolderType(item) !== target.folderType) return false;
  if (containsKey(item, target.key)) return false;
  return target.id !== item.parent;
}

/** The context menu's entries for a node, in the order shown; empty means no menu. */
export function treeActions(node: FolderNode, pendingMove: FolderNode | null): TreeAction[] {
  const actions: TreeAction[] = [];
  const kind = itemKind(node);
  if (node.canWrite) {
    if (node.type === 'projects') actions.push('newProject');
    if (node.type === 'ftpservers') actions.push('newFtpServer');
    if (kind === 'folder') actions.push('newFolder');
    if (kind && !node.isRoot) {
      actions.push('rename');
      if (pendingMove?.key !== node.key) actions.push('move');
    }
  }
  if (pendingMove && canPlace(pendingMove, node)) actions.push('place');
  if (pendingMove) actions.push('cancelMove');
  if (node.canWrite && kind && !node.isRoot && node.children.length === 0) actions.push('delete');
  return actions;
}

/** Longest name each kind takes (spec §9: project and FTP server names 64). */
export function nameLimit(kind: ItemKind): number {
  if (kind === 'project') return limits.projectName;
  if (kind === 'ftpserver') return limits.ftpServerName;
  return limits.folderName;
}

/** The trimmed new name, or null when nothing is to be saved (empty, unchanged). */
export function renameValue(node: FolderNode, typed: string): string | null {
  const kind = itemKind(node);
  const name = typed.trim();
  if (!kind || name === '' || name === node.name) return null;
  return name.slice(0, nameLimit(kind));
}

/** The tree with one node renamed (shown at once while the server saves it); untouched branches stay. */
export function renameInTree(nodes: FolderNode[], key: string, name: string): FolderNode[] {
  let changed = false;
  const next = nodes.map((node) => {
    if (node.key === key) {
      changed = true;
      return { ...node, name };
    }
    const children = renameInTree(node.children, key, name);
    if (children === node.children) return node;
    changed = true;
    return { ...node, children };
  });
  return changed ? next : nodes;
}

/** Keys of the nodes from a root down to (excluding) the node that matches. */
export function ancestorKeys(nodes: FolderNode[], matches: (node: FolderNode) => boolean): string[] | null {
  for (const node of nodes) {
    if (matches(node)) return [];
    const below = ancestorKeys(node.children, matches);
    if (below) return [node.key, ...below];
  }
  return null;
}

export function findNode(nodes: FolderNode[], matches: (node: FolderNode) => boolean): FolderNode | null {
  for (const node of nodes) {
    if (matches(node)) return node;
    const below = findNode(node.children, matches);
    if (below) return below;
  }
  return null;
}
