// One text of a property (spec §2 'Metadata', §5 'Metadata inputs'): the input with its save
// status, checks, counter and variable menu, and what the inputs of every property type share.
import CheckCircleOutlineIcon from '@mui/icons-material/CheckCircleOutlineOutlined';
import CloseIcon from '@mui/icons-material/Close';
import DataObjectOutlinedIcon from '@mui/icons-material/DataObjectOutlined';
import ErrorOutlineIcon from '@mui/icons-material/ErrorOutlineOutlined';
import FiberManualRecordIcon from '@mui/icons-material/FiberManualRecord';
import { Box, CircularProgress, IconButton, InputAdornment, TextField, Tooltip } from '@mui/material';
import { keyframes } from '@mui/material/styles';
import { limits } from '@photorelay/contract/limits';
import type { TFunction } from 'i18next';
import {
  type ChangeEvent,
  createContext,
  type KeyboardEvent,
  type MouseEvent,
  type ReactNode,
  useContext,
  useMemo,
  useRef,
  useState,
} from 'react';
import { useTranslation } from 'react-i18next';
import { defaultLang, slotKey, type ValueSlot, type XmpFieldDef } from '../../../api/metadata.ts';
import type { FieldStatus } from './editor-store.ts';
import { errorText } from './error-text.ts';
import { useDraft, useFieldStatus, useMetadata } from './metadata-context.tsx';
import { checkInput } from './metadata-model.ts';
import { useModeActivation } from './mode-activation.ts';
import { insertVariable, insertVariableAt, openedVariable, VariableMenu } from './variable-menu.tsx';

/** Texts that are usually longer than a line get a growing text area. */
export const longTexts = new Set([
  'description',
  'headline',
  'altTextAccessibility',
  'extDescrAccessibility',
  'usageTerms',
  'instructions',
  'otherConstraints',
  'copyrightNotice',
  'aIPromptInformation',
]);

/** Captions get two lines from the start. */
const roomyTexts = new Set(['description', 'extDescrAccessibility']);

/** From this length on the input shows how many characters are left. */
const counterFrom = Math.floor(limits.metadataValue * 0.8);

/** Adornments of a growing text area stay next to its first line. */
const topAligned = { alignSelf: 'flex-start', mt: 1.25, height: 'auto', maxHeight: 'none' } as const;

const fadeOut = keyframes`
  0%, 60% { opacity: 1; }
  100% { opacity: 0; }
`;

/**
 * Keeps the surrounding list item (and the items around it) on screen when its last value is
 * cleared: an item exists on the server only through its values, and an input must not vanish
 * while the user is typing in it.
 */
export const KeepItemContext = createContext<(() => void) | undefined>(undefined);

export function KeepItem({ keep, children }: { keep: () => void; children: ReactNode }) {
  const outer = useContext(KeepItemContext);
  const value = () => {
    outer?.();
    keep();
  };
  return <KeepItemContext.Provider value={value}>{children}</KeepItemContext.Provider>;
}

export const titleOf = (def: Pick<XmpFieldDef, 'title'>, language: 'en' | 'de') =>
  def.title[language] || def.title.en;

/** 'bag', or 'bag of structures' for an array of structures (debug mode). */
export const typeName = (def: XmpFieldDef, t: TFunction<'metadataTab'>) =>
  def.arrayOfStructures ? t('debug.arrayOfStructures', { type: def.type }) : def.type;

function StatusIcon({ status }: { status: FieldStatus | undefined }) {
  const { t } = useTranslation('metadataTab');
  if (!status) return null;
  switch (status.state) {
    case 'pending':
      return (
        <Tooltip title={t('field.pending', { seconds: limits.metadataAutosaveMs / 1000 })}>
          <FiberManualRecordIcon
            sx={{ fontSize: 10, color: 'warning.main' }}
            data-testid="xmp-status-pending"
          />
        </Tooltip>
      );
    case 'saving':
      return <CircularProgress size={14} aria-label={t('field.saving')} data-testid="xmp-status-saving" />;
    case 'saved':
      return (
        <CheckCircleOutlineIcon
          aria-label={t('field.saved')}
          data-testid="xmp-status-saved"
          sx={{ fontSize: 18, color: 'success.main', animation: `${fadeOut} 2.5s ease-out forwards` }}
        />
      );
    default:
      return status.state === 'error' ? (
        <Tooltip title={t('field.notSaved', { message: errorText(status.error) })}>
          <ErrorOutlineIcon sx={{ fontSize: 18, color: 'error.main' }} data-testid="xmp-status-error" />
        </Tooltip>
      ) : null;
  }
}

type ValueInputProps = {
  slot: ValueSlot;
  /** Visible label (fields of structures); top-level inputs are labelled by their card. */
  label?: string;
  ariaLabel: string;
  disabled: boolean;
  multiline?: boolean;
  autoFocus?: boolean;
  startAdornment?: ReactNode;
  /** Extra buttons at the end of the input (remove). */
  actions?: ReactNode;
  /** Enter in a single-line input (adds the next item of a list). */
  onEnter?: () => void;
};

/** One text of the template: shows the draft or the stored text, saves after the autosave delay. */
export function ValueInput({
  slot,
  label,
  ariaLabel,
  disabled,
  multiline,
  autoFocus,
  startAdornment,
  actions,
  onEnter,
}: ValueInputProps) {
  const { t } = useTranslation('metadataTab');
  const { index, store, debug, canWrite, language } = useMetadata();
  const [variableAt, setVariableAt] = useState<{
    input: HTMLInputElement | HTMLTextAreaElement;
    caret: number;
    /** Opened by the "Insert variable" button: the whole "{name}" goes in, replacing a selection up to here. */
    button?: { anchor: HTMLElement; end: number };
  }>();
  const inputRef = useRef<HTMLInputElement | HTMLTextAreaElement>(null);
  const activateMode = useModeActivation();
  const key = slotKey(slot);
  const draft = useDraft(key);
  const status = useFieldStatus(key);
  const text = draft ?? index.get(key) ?? '';
  const check = useMemo(() => checkInput(slot.ids, text), [slot.ids, text]);

  const onKeyDown = (event: KeyboardEvent<HTMLDivElement>) => {
    if (onEnter && !multiline && event.key === 'Enter' && !event.nativeEvent.isComposing) {
      event.preventDefault();
      onEnter();
    }
  };

  const keepItem = useContext(KeepItemContext);
  const onChange = (event: ChangeEvent<HTMLInputElement | HTMLTextAreaElement>) => {
    const next = event.target.value;
    if (next === '') keepItem?.();
    activateMode?.();
    store.edit(slot, next, !checkInput(slot.ids, next).problem);
    const caret = event.target.selectionStart ?? next.length;
    if (openedVariable(text, next, caret)) setVariableAt({ input: event.target, caret });
  };
  const pickVariable = (name: string) => {
    if (!variableAt) return;
    const { input, caret, button } = variableAt;
    setVariableAt(undefined);
    const next = button ? insertVariableAt(text, caret, button.end, name) : insertVariable(text, caret, name);
    activateMode?.();
    store.edit(slot, next.text, !checkInput(slot.ids, next.text).problem);
    // The menu gives focus back to the input; the caret goes after the inserted variable.
    requestAnimationFrame(() => {
      input.focus();
      input.setSelectionRange(next.caret, next.caret);
    });
  };

  let message: string | undefined;
  let tone: 'error' | 'warning' | undefined;
  if (check.problem) {
    // A stored text may break its format (sidecars hold such values; the server keeps them):
    // a warning then. What the user types must fit before it is saved.
    tone = draft === undefined && check.problem.code !== 'tooLong' ? 'warning' : 'error';
    message = t(`problems.${check.problem.code}`, {
      max: limits.metadataValue,
      length: check.problem.length,
    });
  } else if (status?.state === 'error') {
    tone = 'error';
    message = t('field.notSaved', { message: errorText(status.error) });
  } else if (check.iim) {
    tone = 'warning';
    message = t('iimWarning', { bytes: check.iim.bytes, max: check.iim.maxBytes, name: check.iim.name });
  }
  const counter =
    text.length >= counterFrom ? t('counter', { length: text.length, max: limits.metadataValue }) : undefined;
  const debugText = debug
    ? `${slot.ids} · pos ${slot.position ?? 0} · ${slot.lang ?? defaultLang}`
    : undefined;
  const helper =
    message || counter || debugText ? (
      <Box component="span" sx={{ display: 'flex', gap: 1, justifyContent: 'space-between' }}>
        <Box component="span" sx={{ minWidth: 0 }}>
          {message}
          {debugText && (
            <Box
              component="span"
              sx={{ display: 'block', fontFamily: 'monospace', color: 'text.disabled' }}
              data-testid="xmp-debug-slot"
            >
              {debugText}
            </Box>
          )}
        </Box>
        {counter && (
          <Box component="span" sx={{ flexShrink: 0, fontVariantNumeric: 'tabular-nums' }}>
            {counter}
          </Box>
        )}
      </Box>
    ) : undefined;

  const openVariableMenu = (event: MouseEvent<HTMLElement>) => {
    const input = inputRef.current;
    if (!input) return;
    const caret = input.selectionStart ?? text.length;
    const end = input.selectionEnd ?? caret;
    setVariableAt({ input, caret, button: { anchor: event.currentTarget, end } });
  };
  // A plain title, not a MUI Tooltip: the tab has a hundred inputs, each with this button (issue 16).
  const insertButton = canWrite && !disabled && (
    <IconButton
      size="small"
      edge="end"
      aria-label={t('insertVariable')}
      title={t('insertVariable')}
      // Keeps the caret where it is: the variable goes there.
      onMouseDown={(event) => event.preventDefault()}
      onClick={openVariableMenu}
      data-testid="xmp-insert-variable"
    >
      <DataObjectOutlinedIcon fontSize="small" />
    </IconButton>
  );

  return (
    <>
      <VariableMenu
        anchor={variableAt?.button?.anchor ?? variableAt?.input ?? null}
        language={language}
        onPick={pickVariable}
        onClose={() => setVariableAt(undefined)}
      />
      <TextField
        size="small"
        fullWidth
        label={label}
        value={text}
        onChange={onChange}
        onKeyDown={onKeyDown}
        disabled={disabled}
        inputRef={inputRef}
        multiline={multiline}
        minRows={multiline ? (roomyTexts.has(slot.ids) ? 2 : 1) : undefined}
        maxRows={multiline ? 10 : undefined}
        autoFocus={autoFocus}
        error={tone === 'error'}
        helperText={helper}
        data-testid={`xmp-input-${key}`}
        slotProps={{
          htmlInput: { 'aria-label': label ? undefined : ariaLabel, spellCheck: true },
          formHelperText: tone === 'warning' ? { sx: { color: 'warning.main' } } : undefined,
          input: {
            startAdornment: startAdornment ? (
              <InputAdornment position="start" sx={multiline ? topAligned : undefined}>
                {startAdornment}
              </InputAdornment>
            ) : undefined,
            endAdornment:
              status || actions || insertButton ? (
                <InputAdornment position="end" sx={{ gap: 0.5, ...(multiline ? topAligned : {}) }}>
                  <StatusIcon status={status} />
                  {insertButton}
                  {actions}
                </InputAdornment>
              ) : undefined,
          },
        }}
        sx={{ '& .MuiInputBase-root': { bgcolor: 'background.paper' } }}
      />
    </>
  );
}

/** The small cross that removes one value (a language, an item of a list). */
export function RemoveValueButton({
  label,
  onClick,
  disabled,
}: {
  label: string;
  onClick: () => void;
  disabled: boolean;
}) {
  return (
    <Tooltip title={label}>
      <span>
        <IconButton size="small" edge="end" aria-label={label} onClick={onClick} disabled={disabled}>
          <CloseIcon fontSize="small" />
        </IconButton>
      </span>
    </Tooltip>
  );
}

export type FieldProps = {
  def: XmpFieldDef;
  /** Ids of the structure this field belongs to; absent for a top-level property. */
  parentIds?: string;
  /** Item position of the property's array of structures the field is in. */
  position?: number;
  disabled: boolean;
};
