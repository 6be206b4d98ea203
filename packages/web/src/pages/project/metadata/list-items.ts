// The items of a list property (a Bag/Seq of texts, an array of structures): the stored ones and
// those added in the editor, where each item's values live, and removing an item.
import { useDeleteXmpValue, type ValueSlot, type XmpFieldDef } from '../../../api/metadata.ts';
import { nestedContainer } from './editor-store.ts';
import { useAddedItems, useMetadata } from './metadata-context.tsx';
import { childIds, indexedId, itemPositions, nestedIndexes, uniqueSorted } from './metadata-model.ts';

export function useListItems(def: XmpFieldDef, parentIds: string | undefined, position: number | undefined) {
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
  const slotOf = (index: number): ValueSlot =>
    nested ? { ids: indexedId(containerIds, index), position } : { ids: def.id, position: index };

  const removeItem = (index: number) => {
    const slot = slotOf(index);
    store.discard(slot, { container, index });
    if (stored.includes(index)) remove.mutate(slot);
  };

  return { nested, containerIds, container, all, slotOf, removeItem };
}
