// The inputs of one property (spec §2 'Metadata', §5 'Metadata inputs'): one input for a simple
// text, one per language for an Alt text, a list for a Bag/Seq, grouped fields for a structure
// and items for an array of structures. Every input saves itself through the editor store.
import AddIcon from '@mui/icons-material/Add';
import CheckCircleOutlineIcon from '@mui/icons-material/CheckCircleOutlineOutlined';
import CloseIcon from '@mui/icons-material/Close';
import DeleteOutlineIcon from '@mui/icons-material/DeleteOutlineOutlined';
import ErrorOutlineIcon from '@mui/icons-material/ErrorOutlineOutlined';
import FiberManualRecordIcon from '@mui/icons-material/FiberManualRecord';
import TranslateIcon from '@mui/icons-material/Translate';
import {
  Box,
  Button,
  Chip,
  CircularProgress,
  Grid,
  IconButton,
  InputAdornment,
  Popover,
  Stack,
  TextField,
  Tooltip,
  Typography,
} from '@mui/material';
import { keyframes } from '@mui/material/styles';
import { limits } from '@photorelay/contract/limits';
import {
  type ChangeEvent,
  createContext,
  type FormEvent,
  type KeyboardEvent,
  type ReactNode,
  useContext,
  useMemo,
  useState,
} from 'react';
import { useTranslation } from 'react-i18next';
import {
  defaultLang,
  slotKey,
  useDeleteXmpValue,
  type ValueSlot,
  type XmpFieldDef,
} from '../../../api/metadata.ts';
import { type FieldStatus, nestedContainer } from './editor-store.ts';
import { errorText } from './error-text.ts';
import {
  useAddedItems,
  useAddedLanguages,
  useDraft,
  useFieldStatus,
  useMetadata,
} from './metadata-context.tsx';
import {
  checkInput,
  childIds,
  indexedId,
  itemPositions,
  languagesOf,
  nestedIndexes,
  nextIndex,
  normalizeLanguage,
  sortLanguages,
  uniqueSorted,
} from './metadata-model.ts';
import { insertVariable, openedVariable, VariableMenu } from './variable-menu.tsx';

/** Texts that are usually longer than a line get a growing text area. */
const longTexts = new Set([
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
const KeepItemContext = createContext<(() => void) | undefined>(undefined);

function KeepItem({ keep, children }: { keep: () => void; children: ReactNode }) {
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
export const typeName = (def: XmpFieldDef, t: (key: string, options?: Record<string, unknown>) => string) =>
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
  }>();
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
    store.edit(slot, next, !checkInput(slot.ids, next).problem);
    const caret = event.target.selectionStart ?? next.length;
    if (openedVariable(text, next, caret)) setVariableAt({ input: event.target, caret });
  };
  const pickVariable = (name: string) => {
    if (!variableAt) return;
    const { input, caret } = variableAt;
    setVariableAt(undefined);
    const next = insertVariable(text, caret, name);
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

  return (
    <>
      <VariableMenu
        anchor={variableAt?.input ?? null}
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
        placeholder={disabled && canWrite && text === '' ? t('chooseMode') : undefined}
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
              status || actions ? (
                <InputAdornment position="end" sx={{ gap: 0.5, ...(multiline ? topAligned : {}) }}>
                  <StatusIcon status={status} />
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

function RemoveButton({
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

type FieldProps = {
  def: XmpFieldDef;
  /** Ids of the structure this field belongs to; absent for a top-level property. */
  parentIds?: string;
  /** Item position of the property's array of structures the field is in. */
  position?: number;
  disabled: boolean;
};

/** The editor of any catalog field, by its type. */
export function FieldEditor({ def, parentIds, position, disabled }: FieldProps) {
  const { language } = useMetadata();
  const ids = parentIds === undefined ? def.id : childIds(parentIds, def.id);
  const title = titleOf(def, language);
  const nested = parentIds !== undefined;
  if (def.arrayOfStructures)
    return <StructureItems def={def} parentIds={parentIds} position={position} disabled={disabled} />;
  switch (def.type) {
    case 'structure':
      return <StructureFields def={def} ids={ids} position={position} disabled={disabled} />;
    case 'bag':
    case 'seq':
      return <ArrayInputs def={def} parentIds={parentIds} position={position} disabled={disabled} />;
    case 'alt':
      if (!nested) return <AltInputs def={def} disabled={disabled} />;
      // Nested Alt texts are edited in the default language: the API addresses an item's field by position only.
      return <ValueInput slot={{ ids, position }} label={title} ariaLabel={title} disabled={disabled} />;
    default:
      return (
        <ValueInput
          slot={{ ids, position }}
          label={nested ? title : undefined}
          ariaLabel={title}
          disabled={disabled}
          multiline={!nested && longTexts.has(def.id)}
        />
      );
  }
}

// ---- Alt: one input per language ----

function AltInputs({ def, disabled }: { def: XmpFieldDef; disabled: boolean }) {
  const { t } = useTranslation('metadataTab');
  const { values, store, language, teamUuid, projectId } = useMetadata();
  const remove = useDeleteXmpValue(teamUuid, projectId);
  const added = useAddedLanguages(def.id);
  const [focus, setFocus] = useState<string>();
  const stored = languagesOf(values.xmpvalues, def.id);
  const languages = sortLanguages([defaultLang, ...stored, ...added]);
  const title = titleOf(def, language);

  const removeLanguage = (lang: string) => {
    const slot = { ids: def.id, lang };
    store.discard(slot, { propertyId: def.id, lang });
    if (stored.includes(lang)) remove.mutate(slot);
  };

  return (
    <Stack spacing={1}>
      {languages.map((lang) => {
        const isDefault = lang === defaultLang;
        const langLabel = isDefault ? t('languages.default') : lang;
        return (
          <KeepItem key={lang} keep={() => store.addLanguage(def.id, lang)}>
            <ValueInput
              slot={{ ids: def.id, lang }}
              ariaLabel={`${title} (${langLabel})`}
              disabled={disabled}
              multiline={longTexts.has(def.id)}
              autoFocus={focus === lang}
              startAdornment={
                languages.length > 1 ? (
                  <Chip
                    size="small"
                    label={langLabel}
                    variant={isDefault ? 'filled' : 'outlined'}
                    sx={{ width: 64, height: 22, fontSize: '0.7rem', fontWeight: 600 }}
                  />
                ) : undefined
              }
              actions={
                isDefault ? undefined : (
                  <RemoveButton
                    label={t('languages.remove', { lang })}
                    onClick={() => removeLanguage(lang)}
                    disabled={disabled}
                  />
                )
              }
            />
          </KeepItem>
        );
      })}
      <Box>
        <AddLanguageButton
          existing={languages}
          disabled={disabled}
          onAdd={(lang) => {
            store.addLanguage(def.id, lang);
            setFocus(lang);
          }}
        />
      </Box>
    </Stack>
  );
}

function AddLanguageButton({
  existing,
  disabled,
  onAdd,
}: {
  existing: readonly string[];
  disabled: boolean;
  onAdd: (lang: string) => void;
}) {
  const { t } = useTranslation('metadataTab');
  const [anchor, setAnchor] = useState<HTMLElement | null>(null);
  const [code, setCode] = useState('');
  const [tried, setTried] = useState(false);
  const normalized = normalizeLanguage(code);
  const error = !normalized
    ? t('languages.invalid')
    : existing.includes(normalized)
      ? t('languages.exists')
      : undefined;
  const close = () => {
    setAnchor(null);
    setCode('');
    setTried(false);
  };
  const submit = (event: FormEvent) => {
    event.preventDefault();
    setTried(true);
    if (error || !normalized) return;
    onAdd(normalized);
    close();
  };
  return (
    <>
      <Button
        size="small"
        startIcon={<TranslateIcon fontSize="small" />}
        onClick={(event) => setAnchor(event.currentTarget)}
        disabled={disabled}
        sx={{ px: 1 }}
      >
        {t('languages.add')}
      </Button>
      <Popover
        open={anchor !== null}
        anchorEl={anchor}
        onClose={close}
        anchorOrigin={{ vertical: 'bottom', horizontal: 'left' }}
      >
        <Box
          component="form"
          onSubmit={submit}
          sx={{ p: 2, display: 'flex', gap: 1, alignItems: 'flex-start', width: 320 }}
        >
          <TextField
            size="small"
            autoFocus
            label={t('languages.code')}
            value={code}
            onChange={(event) => setCode(event.target.value)}
            error={tried && error !== undefined}
            helperText={tried && error ? error : t('languages.codeHelp')}
            slotProps={{ htmlInput: { maxLength: 35, 'data-testid': 'xmp-language-code' } }}
          />
          <Button type="submit" variant="contained" sx={{ mt: 0.25 }}>
            {t('items.add')}
          </Button>
        </Box>
      </Popover>
    </>
  );
}

// ---- Bag / Seq of texts ----

function ArrayInputs({ def, parentIds, position, disabled }: FieldProps) {
  const { t } = useTranslation('metadataTab');
  const { values, store, language, teamUuid, projectId } = useMetadata();
  const remove = useDeleteXmpValue(teamUuid, projectId);
  const [focus, setFocus] = useState<number>();
  const title = titleOf(def, language);
  const nested = parentIds !== undefined;
  const containerIds = nested ? childIds(parentIds, def.id) : def.id;
  const container = nested ? nestedContainer(containerIds, position ?? 0) : def.id;
  const stored = nested
    ? nestedIndexes(values.xmpvalues, containerIds, position ?? 0)
    : itemPositions(values.xmpvalues, def);
  const added = useAddedItems(container);
  const all = uniqueSorted([...stored, ...added]);
  // An empty list still shows one input, so the first value can be typed at once.
  const shown = all.length > 0 ? all : [0];
  const slotOf = (index: number): ValueSlot =>
    nested ? { ids: indexedId(containerIds, index), position } : { ids: def.id, position: index };
  const ordered = def.type === 'seq';
  const wide = def.valueFormat === 'uri' || def.valueFormat === 'url';
  const itemSize = ordered ? 12 : wide || nested ? { xs: 12, md: 6 } : { xs: 12, sm: 6, md: 4 };

  const add = () => {
    for (const index of shown) if (!all.includes(index)) store.addItem(container, index);
    const next = nextIndex(shown);
    store.addItem(container, next);
    setFocus(next);
  };
  const removeItem = (index: number) => {
    const slot = slotOf(index);
    store.discard(slot, { container, index });
    if (stored.includes(index)) remove.mutate(slot);
  };

  return (
    <Box>
      {nested && (
        <Typography
          variant="caption"
          color="text.secondary"
          sx={{ display: 'block', mb: 0.5, fontWeight: 600 }}
        >
          {title}
        </Typography>
      )}
      <Grid container spacing={1}>
        {shown.map((index, order) => (
          <Grid key={index} size={itemSize}>
            <KeepItem keep={() => store.addItem(container, index)}>
              <ValueInput
                slot={slotOf(index)}
                ariaLabel={`${title} ${order + 1}`}
                disabled={disabled}
                autoFocus={focus === index}
                onEnter={index === shown.at(-1) && !disabled ? add : undefined}
                startAdornment={
                  ordered ? (
                    <Typography
                      variant="caption"
                      color="text.secondary"
                      sx={{ fontVariantNumeric: 'tabular-nums' }}
                    >
                      {order + 1}.
                    </Typography>
                  ) : undefined
                }
                actions={
                  all.includes(index) ? (
                    <RemoveButton
                      label={t('items.remove')}
                      onClick={() => removeItem(index)}
                      disabled={disabled}
                    />
                  ) : undefined
                }
              />
            </KeepItem>
          </Grid>
        ))}
      </Grid>
      <Button
        size="small"
        startIcon={<AddIcon fontSize="small" />}
        onClick={add}
        disabled={disabled}
        sx={{ mt: 0.5, px: 1 }}
        data-testid={`xmp-add-${containerIds}`}
      >
        {t('items.add')}
      </Button>
    </Box>
  );
}

// ---- structures ----

const isCompound = (def: XmpFieldDef) => def.type !== 'simple' && def.type !== 'alt';

function StructureFields({
  def,
  ids,
  position,
  disabled,
}: {
  def: XmpFieldDef;
  ids: string;
  position?: number;
  disabled: boolean;
}) {
  const { t } = useTranslation('metadataTab');
  const { language, debug } = useMetadata();
  return (
    <Grid container columnSpacing={1.5} rowSpacing={1.5}>
      {(def.fields ?? []).map((field) => (
        <Grid key={field.id} size={isCompound(field) ? 12 : { xs: 12, sm: 6 }}>
          {field.type === 'structure' || field.arrayOfStructures ? (
            <Box>
              <Typography
                variant="caption"
                color="text.secondary"
                sx={{ display: 'block', mb: 0.5, fontWeight: 600 }}
              >
                {titleOf(field, language)}
                {debug && (
                  <Box
                    component="span"
                    sx={{ ml: 1, fontFamily: 'monospace', fontWeight: 400, color: 'text.disabled' }}
                  >
                    {field.xmpName} · {typeName(field, t)}
                  </Box>
                )}
              </Typography>
              <Box sx={{ pl: 1.5, borderLeft: 2, borderColor: 'divider' }}>
                <FieldEditor def={field} parentIds={ids} position={position} disabled={disabled} />
              </Box>
            </Box>
          ) : (
            <FieldEditor def={field} parentIds={ids} position={position} disabled={disabled} />
          )}
        </Grid>
      ))}
    </Grid>
  );
}

function StructureItems({ def, parentIds, position, disabled }: FieldProps) {
  const { t } = useTranslation('metadataTab');
  const { values, store, teamUuid, projectId } = useMetadata();
  const remove = useDeleteXmpValue(teamUuid, projectId);
  const nested = parentIds !== undefined;
  const containerIds = nested ? childIds(parentIds, def.id) : def.id;
  const container = nested ? nestedContainer(containerIds, position ?? 0) : def.id;
  const stored = nested
    ? nestedIndexes(values.xmpvalues, containerIds, position ?? 0)
    : itemPositions(values.xmpvalues, def);
  const added = useAddedItems(container);
  const all = uniqueSorted([...stored, ...added]);

  // Top level: the item is the property's position. Nested: an index on the array's own id.
  const itemOf = (index: number) =>
    nested
      ? {
          ids: indexedId(containerIds, index),
          position,
          slot: { ids: indexedId(containerIds, index), position },
        }
      : { ids: def.id, position: index, slot: { ids: def.id, position: index } };

  const removeItem = (index: number) => {
    const { slot } = itemOf(index);
    store.discard(slot, { container, index });
    if (stored.includes(index)) remove.mutate(slot);
  };

  return (
    <Stack spacing={1.25}>
      {all.length === 0 && (
        <Typography variant="body2" color="text.disabled">
          {t('items.empty')}
        </Typography>
      )}
      {all.map((index, order) => {
        const item = itemOf(index);
        return (
          <Box
            key={index}
            sx={{
              border: 1,
              borderColor: 'divider',
              borderRadius: 1.5,
              p: 1.5,
              pt: 1,
              bgcolor: nested ? 'background.paper' : 'rgba(31,79,179,0.025)',
            }}
            data-testid={`xmp-item-${containerIds}-${order}`}
          >
            <Stack direction="row" sx={{ alignItems: 'center', justifyContent: 'space-between', mb: 1 }}>
              <Typography variant="overline" color="text.secondary" sx={{ lineHeight: 1.8 }}>
                {t('items.item', { number: order + 1 })}
              </Typography>
              <Tooltip title={t('items.remove')}>
                <span>
                  <IconButton
                    size="small"
                    aria-label={t('items.remove')}
                    onClick={() => removeItem(index)}
                    disabled={disabled}
                  >
                    <DeleteOutlineIcon fontSize="small" />
                  </IconButton>
                </span>
              </Tooltip>
            </Stack>
            <KeepItem keep={() => store.addItem(container, index)}>
              <StructureFields def={def} ids={item.ids} position={item.position} disabled={disabled} />
            </KeepItem>
          </Box>
        );
      })}
      <Box>
        <Button
          size="small"
          variant="outlined"
          startIcon={<AddIcon fontSize="small" />}
          onClick={() => store.addItem(container, nextIndex(all))}
          disabled={disabled}
          data-testid={`xmp-add-${containerIds}`}
        >
          {t('items.addItem')}
        </Button>
      </Box>
    </Stack>
  );
}
