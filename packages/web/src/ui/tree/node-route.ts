// Where a click on a tree node leads, and whether the current page shows that node.
import type { FolderNode } from '../../api/folders.ts';

/** Where a click on a node leads (spec §2 'Left drawer'); null only expands or collapses it. */
export function nodeRoute(node: FolderNode): string | null {
  switch (node.type) {
    case 'project':
      return `/project/overview?id=${node.id}`;
    case 'ftpserver':
      return `/ftpserver?id=${node.id}`;
    case 'calendar':
      return `/calendar?id=${node.id}`;
    case 'users':
      return '/users';
    case 'configfiles':
      return '/configfiles';
    case 'settings':
      return null;
    default:
      return `/folder?id=${node.id}`;
  }
}

/** Whether the page at `pathname` + `search` shows this node (any tab of a project counts). */
export function showsNode(node: FolderNode, pathname: string, search: string): boolean {
  const path = pathname.toLowerCase();
  const id = new URLSearchParams(search).get('id');
  switch (node.type) {
    case 'project':
      return (path === '/project' || path.startsWith('/project/')) && id === String(node.id);
    case 'ftpserver':
      return path === '/ftpserver' && id === String(node.id);
    case 'calendar':
      return path === '/calendar' && id === String(node.id);
    case 'users':
      return path === '/users';
    case 'configfiles':
      return path === '/configfiles';
    case 'settings':
      return false;
    default:
      return path === '/folder' && id === String(node.id);
  }
}
