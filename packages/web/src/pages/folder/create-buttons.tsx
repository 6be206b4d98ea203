// Issue 16 item 1: a visible way to create things, besides the tree's context menu. Folder pages
// of the projects and FTP servers trees offer "New project" / "New FTP server" and "New folder"
// to members who may write there.
import AddIcon from '@mui/icons-material/Add';
import CreateNewFolderOutlinedIcon from '@mui/icons-material/CreateNewFolderOutlined';
import { Button } from '@mui/material';
import { useTranslation } from 'react-i18next';
import { Link as RouterLink, useNavigate } from 'react-router';
import { type FolderNode, useCreateFolder } from '../../api/folders.ts';

export function FolderCreateButtons({ folder, teamUuid }: { folder: FolderNode; teamUuid: string }) {
  const { t } = useTranslation('shell');
  const navigate = useNavigate();
  const createFolder = useCreateFolder(teamUuid);
  const type = folder.folderType;
  if (!folder.canWrite || (type !== 'projects' && type !== 'ftpservers')) return null;
  const item =
    type === 'projects'
      ? {
          to: `/newproject?parentfolder=${folder.id}`,
          label: t('tree.menu.newProject'),
          testId: 'folder-new-project',
        }
      : {
          to: `/newftpserver?parentfolder=${folder.id}`,
          label: t('tree.menu.newFtpServer'),
          testId: 'folder-new-ftpserver',
        };
  return (
    <>
      <Button
        variant="outlined"
        startIcon={<CreateNewFolderOutlinedIcon />}
        disabled={createFolder.isPending}
        onClick={() =>
          createFolder.mutate(
            { parentFolderId: folder.id, name: t('tree.newFolderName') },
            { onSuccess: ({ folderId }) => navigate(`/folder?id=${folderId}`) },
          )
        }
        data-testid="folder-new-folder"
      >
        {t('tree.menu.newFolder')}
      </Button>
      <Button
        variant="contained"
        startIcon={<AddIcon />}
        component={RouterLink}
        to={item.to}
        data-testid={item.testId}
      >
        {item.label}
      </Button>
    </>
  );
}
