// A Bag or Seq of texts (spec §5 'Metadata inputs'): one input per item (numbered for a Seq),
// Enter in the last one adds the next.
import AddIcon from '@mui/icons-material/Add';
import { Box, Button, Grid, Typography } from '@mui/material';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useListItems } from './list-items.ts';
import { useMetadata } from './metadata-context.tsx';
import { nextIndex } from './metadata-model.ts';
import { type FieldProps, KeepItem, RemoveValueButton, titleOf, ValueInput } from './value-input.tsx';

export function ArrayInputs({ def, parentIds, position, disabled }: FieldProps) {
  const { t } = useTranslation('metadataTab');
  const { store, language } = useMetadata();
  const { nested, containerIds, container, all, slotOf, removeItem } = useListItems(def, parentIds, position);
  const [focus, setFocus] = useState<number>();
  const title = titleOf(def, language);
  // An empty list still shows one input, so the first value can be typed at once.
  const shown = all.length > 0 ? all : [0];
  const ordered = def.type === 'seq';
  const wide = def.valueFormat === 'uri' || def.valueFormat === 'url';
  const itemSize = ordered ? 12 : wide || nested ? { xs: 12, md: 6 } : { xs: 12, sm: 6, md: 4 };

  const add = () => {
    for (const index of shown) if (!all.includes(index)) store.addItem(container, index);
    const next = nextIndex(shown);
    store.addItem(container, next);
    setFocus(next);
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
                    <RemoveValueButton
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
