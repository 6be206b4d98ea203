// The inputs of one property (spec §2 'Metadata', §5 'Metadata inputs'), chosen by its type: one
// input for a simple text (value-input.tsx), one per language for an Alt text (alt-inputs.tsx), a
// list for a Bag/Seq (array-inputs.tsx), grouped fields for a structure and items for an array of
// structures (here). Every input saves itself through the editor store.
import AddIcon from '@mui/icons-material/Add';
import DeleteOutlineIcon from '@mui/icons-material/DeleteOutlineOutlined';
import { Box, Button, Grid, IconButton, Stack, Tooltip, Typography } from '@mui/material';
import { useTranslation } from 'react-i18next';
import type { XmpFieldDef } from '../../../api/metadata.ts';
import { AltInputs } from './alt-inputs.tsx';
import { ArrayInputs } from './array-inputs.tsx';
import { useListItems } from './list-items.ts';
import { useMetadata } from './metadata-context.tsx';
import { childIds, nextIndex } from './metadata-model.ts';
import { type FieldProps, KeepItem, longTexts, titleOf, typeName, ValueInput } from './value-input.tsx';

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
  const { store } = useMetadata();
  const { nested, containerIds, container, all, slotOf, removeItem } = useListItems(def, parentIds, position);

  return (
    <Stack spacing={1.25}>
      {all.length === 0 && (
        <Typography variant="body2" color="text.disabled">
          {t('items.empty')}
        </Typography>
      )}
      {all.map((index, order) => {
        const item = slotOf(index);
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
