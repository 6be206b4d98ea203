// A drop area for one file (react-dropzone): dashed frame, icon, hint; click opens the chooser.
import { Box, Typography } from '@mui/material';
import { alpha } from '@mui/material/styles';
import type { ReactNode } from 'react';
import { type FileRejection, useDropzone } from 'react-dropzone';
import { hasExtension } from './files.ts';

type Props = {
  /** Accepted extensions, lower case with the dot ('.xmp'). */
  extensions: readonly string[];
  mimeType: string;
  icon: ReactNode;
  text: string;
  activeText: string;
  disabled?: boolean;
  onFile: (file: File) => void;
  /** A file of another type was dropped. */
  onWrongType: () => void;
  testId: string;
  children?: ReactNode;
};

export function DropArea({
  extensions,
  mimeType,
  icon,
  text,
  activeText,
  disabled = false,
  onFile,
  onWrongType,
  testId,
  children,
}: Props) {
  const { getRootProps, getInputProps, isDragActive } = useDropzone({
    accept: { [mimeType]: [...extensions] },
    multiple: false,
    disabled,
    // The browser's MIME type of .xmp files varies; the extension decides (spec §5).
    validator: (file) =>
      // Dragging over reports DataTransferItems without names; only real files are checked.
      file instanceof File && file.name && !hasExtension(file.name, extensions)
        ? { code: 'file-invalid-type', message: 'wrong type' }
        : null,
    onDrop: (accepted: File[], rejected: FileRejection[]) => {
      if (accepted[0]) onFile(accepted[0]);
      else if (rejected.length > 0) onWrongType();
    },
  });
  return (
    <Box
      {...getRootProps()}
      data-testid={testId}
      sx={(theme) => ({
        border: '1.5px dashed',
        borderColor: isDragActive ? 'primary.main' : 'divider',
        borderRadius: 2,
        bgcolor: isDragActive ? alpha(theme.palette.primary.main, 0.06) : '#fafbfd',
        px: 2,
        py: 2.5,
        textAlign: 'center',
        cursor: disabled ? 'default' : 'pointer',
        opacity: disabled ? 0.6 : 1,
        transition: 'border-color 120ms, background-color 120ms',
        outline: 'none',
        '&:hover': disabled ? undefined : { borderColor: 'primary.light' },
        '&:focus-visible': {
          borderColor: 'primary.main',
          boxShadow: `0 0 0 3px ${alpha(theme.palette.primary.main, 0.2)}`,
        },
      })}
    >
      <input {...getInputProps()} data-testid={`${testId}-input`} />
      <Box
        sx={{ color: isDragActive ? 'primary.main' : 'text.secondary', mb: 0.5, '& svg': { fontSize: 30 } }}
      >
        {icon}
      </Box>
      <Typography variant="body2" color={isDragActive ? 'primary' : 'text.secondary'}>
        {isDragActive ? activeText : text}
      </Typography>
      {children}
    </Box>
  );
}
