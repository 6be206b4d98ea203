// The variables a template text may hold (issue 16 item 6), offered in every text field of the
// metadata tab: typing "{" opens this menu, and a choice completes the brace to "{name}".
// Picture variables come from the picture itself; property aliases stand for that property's
// final value (packages/xmp/src/variables.ts resolves both per picture).
import { ListItemText, ListSubheader, Menu, MenuItem } from '@mui/material';
import { catalog } from '@photorelay/xmp/catalog';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';

/** The variables variables.ts resolves from the picture and the upload. */
export const pictureVariables = [
  'filename',
  'filenamebase',
  'date',
  'time',
  'datetime',
  'camera',
  'make',
  'model',
  'serial',
  'lens',
  'iso',
  'photographer',
] as const;

/** Whether typing produced a "{" right before the caret that starts a variable ("\{" is a brace). */
export function openedVariable(before: string, after: string, caret: number): boolean {
  return after.length === before.length + 1 && after[caret - 1] === '{' && after[caret - 2] !== '\\';
}

/** `text` with the "{" before `caret` completed to "{name}"; the caret goes after the "}". */
export function insertVariable(text: string, caret: number, name: string): { text: string; caret: number } {
  const completion = `${name}}`;
  return { text: text.slice(0, caret) + completion + text.slice(caret), caret: caret + completion.length };
}

/** `text` with "{name}" put between `start` and `end` (a selection is replaced); the caret goes after it. */
export function insertVariableAt(
  text: string,
  start: number,
  end: number,
  name: string,
): { text: string; caret: number } {
  const variable = `{${name}}`;
  return { text: text.slice(0, start) + variable + text.slice(end), caret: start + variable.length };
}

export function VariableMenu({
  anchor,
  language,
  onPick,
  onClose,
}: {
  anchor: HTMLElement | null;
  language: 'en' | 'de';
  onPick: (name: string) => void;
  onClose: () => void;
}) {
  const { t } = useTranslation('metadataTab');
  // Built once the menu was opened: the tab has a hundred inputs, each with this menu (issue 16).
  const [used, setUsed] = useState(false);
  if (anchor !== null && !used) setUsed(true);
  if (anchor === null && !used) return null;
  const aliases = catalog.flatMap((def) => def.vars.map((name) => ({ name, title: def.title[language] })));
  const item = (name: string, secondary: string) => (
    <MenuItem key={name} dense onClick={() => onPick(name)} data-testid={`xmp-variable-${name}`}>
      <ListItemText primary={`{${name}}`} secondary={secondary} />
    </MenuItem>
  );
  return (
    <Menu
      open={anchor !== null}
      anchorEl={anchor}
      onClose={onClose}
      // Below the field, so the text being typed stays in view.
      anchorOrigin={{ vertical: 'bottom', horizontal: 'left' }}
      transformOrigin={{ vertical: 'top', horizontal: 'left' }}
      data-testid="xmp-variable-menu"
      slotProps={{ paper: { sx: { maxHeight: 360 } } }}
    >
      <ListSubheader>{t('variables.picture')}</ListSubheader>
      {pictureVariables.map((name) => item(name, t(`variables.names.${name}`)))}
      <ListSubheader>{t('variables.properties')}</ListSubheader>
      {aliases.map(({ name, title }) => item(name, title))}
    </Menu>
  );
}
