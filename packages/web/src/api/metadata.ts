// Metadata calls of spec §7 'Image processing and metadata': the property catalog, a project's
// XMP values and modes, clear, and the commands for the .xmp sidecar and the test image.
import * as routes from '@photorelay/contract/metadata';
import {
  downloadXmpFileDetail,
  type getXmpValuesResponse,
  processImageDetail,
  storeXmpFileDetail,
  type ValueAddress,
  type XmpFieldDef,
  type XmpMode,
  type XmpProperty,
  type XmpValue,
} from '@photorelay/contract/metadata';
import { fillPath } from '@photorelay/contract/route';
import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { z } from 'zod';
import { callRoute, routeUrl } from './call.ts';
import { teamScope } from './client.ts';
import { useCommand } from './commands.ts';
import { handlesAllErrors, handlesErrorCodes } from './query-client.ts';

export type { XmpFieldDef, XmpMode, XmpProperty, XmpValue };
export type XmpValues = z.infer<typeof getXmpValuesResponse>;
export type StoreXmpFileDetail = z.infer<typeof storeXmpFileDetail>;
export type ProcessImageDetail = z.infer<typeof processImageDetail>;
export { downloadXmpFileDetail, processImageDetail, storeXmpFileDetail };

export const defaultLang = 'x-default';

/**
 * Where one value lives (spec §3 'XMP value'): `ids` is 'id' or 'parent,child' (an array nested
 * in a structure carries its item index: 'parent,child[1]'); `position` numbers the items of
 * the property's Bag/Seq; `lang` is the language of an Alt text. The API addresses a value by
 * position or by language, never both.
 */
export type ValueSlot = { ids: string; position?: number; lang?: string };

/** One string per stored value: the key of the server's row. */
export const slotKey = (slot: ValueSlot) => `${slot.ids}|${slot.position ?? 0}|${slot.lang ?? defaultLang}`;
export const valueKey = (value: XmpValue) =>
  `${value.propertytypeids}|${value.position ?? 0}|${value.lang ?? defaultLang}`;

/** Which of the contract's value addresses a slot uses, and its path parameters. */
function valueAddress(projectId: number, slot: ValueSlot) {
  const params = { id: projectId, ids: slot.ids };
  if (slot.lang !== undefined) return { at: 'lang' as const, params: { ...params, lang: slot.lang } };
  if (slot.position !== undefined)
    return { at: 'position' as const, params: { ...params, n: slot.position } };
  return { at: 'value' as const, params };
}
/** One call serves the three addresses: each route's path takes the parameters it names. */
type AddressedParams = { id: number; ids: string; lang: string; n: number };
const addressed = (projectId: number, slot: ValueSlot) =>
  valueAddress(projectId, slot) as { at: ValueAddress; params: AddressedParams };

/** `project/{id}/xmpvalue/{ids}`, with `/lang/{lang}` or `/position/{n}` when the slot names one. */
export function xmpValuePath(projectId: number, slot: ValueSlot): string {
  const { at, params } = valueAddress(projectId, slot);
  return fillPath(routes.putXmpValue[at].path, params);
}

export const xmpModePath = (projectId: number, propertyId: string, mode: XmpMode) =>
  fillPath(routes.putXmpMode.path, { id: projectId, propertyId, mode });

/** The stamped test image of processimage (an attachment). */
export const downloadResultUrl = (teamUuid: string, a: number, b: string) =>
  routeUrl(routes.downloadResultFile, { teamUuid, params: { a, b } });

// ---- cache updates (mirror what the server stores) ----

/** The values after a save: an empty text removes the value (the page deletes it). */
export function withSavedValue(data: XmpValues, slot: ValueSlot, value: string): XmpValues {
  const key = slotKey(slot);
  const others = data.xmpvalues.filter((entry) => valueKey(entry) !== key);
  if (value === '') return { ...data, xmpvalues: others };
  const saved: XmpValue = {
    propertytypeids: slot.ids,
    value,
    position: slot.position ?? 0,
    lang: slot.lang ?? defaultLang,
  };
  return { ...data, xmpvalues: [...others, saved] };
}

/** Whether DELETE `slot` removes `value`: the ids or a structure field below it, filtered by position and language. */
export function deleteMatches(slot: ValueSlot, value: XmpValue): boolean {
  const ids = value.propertytypeids;
  if (ids !== slot.ids && !ids.startsWith(`${slot.ids},`)) return false;
  if (slot.position !== undefined && (value.position ?? 0) !== slot.position) return false;
  if (slot.lang !== undefined && (value.lang ?? defaultLang) !== slot.lang) return false;
  return true;
}

export const withoutValues = (data: XmpValues, slot: ValueSlot): XmpValues => ({
  ...data,
  xmpvalues: data.xmpvalues.filter((value) => !deleteMatches(slot, value)),
});

export function withMode(data: XmpValues, propertyId: string, mode: XmpMode): XmpValues {
  const others = data.xmpmodes.filter((entry) => entry.propertytypeid !== propertyId);
  return { ...data, xmpmodes: [...others, { propertytypeid: propertyId, mode }] };
}

// ---- keys ----

export const metadataKeys = {
  all: (teamUuid: string) => [...teamScope(teamUuid), 'metadata'] as const,
  properties: (teamUuid: string) => [...metadataKeys.all(teamUuid), 'properties'] as const,
  values: (teamUuid: string, projectId: number) =>
    [...metadataKeys.all(teamUuid), 'values', projectId] as const,
};

// ---- fetchers ----

export const fetchXmpProperties = (teamUuid: string, signal?: AbortSignal) =>
  callRoute(routes.getXmpProperties, { teamUuid, signal }).then((answer) => answer.xmpproperties);

export const fetchXmpValues = (teamUuid: string, projectId: number, signal?: AbortSignal) =>
  callRoute(routes.getXmpValues, { teamUuid, params: { id: projectId }, signal });

export function putXmpValue(teamUuid: string, projectId: number, slot: ValueSlot, value: string) {
  const { at, params } = addressed(projectId, slot);
  return callRoute(routes.putXmpValue[at], { teamUuid, params, body: { value } });
}

export function deleteXmpValue(teamUuid: string, projectId: number, slot: ValueSlot) {
  const { at, params } = addressed(projectId, slot);
  return callRoute(routes.deleteXmpValue[at], { teamUuid, params });
}

export const putXmpMode = (teamUuid: string, projectId: number, propertyId: string, mode: XmpMode) =>
  callRoute(routes.putXmpMode, { teamUuid, params: { id: projectId, propertyId, mode } });

export const deleteXmpValues = (teamUuid: string, projectId: number) =>
  callRoute(routes.deleteXmpValues, { teamUuid, params: { id: projectId } });

/**
 * A save sent while the page unloads: `keepalive` lets the browser finish the request after
 * the document is gone. Nobody waits for the answer.
 */
export function sendValueOnUnload(teamUuid: string, projectId: number, slot: ValueSlot, value: string): void {
  const remove = value === '';
  const { at, params } = addressed(projectId, slot);
  void fetch(routeUrl(routes.putXmpValue[at], { teamUuid, params }), {
    method: remove ? 'DELETE' : 'PUT',
    credentials: 'same-origin',
    keepalive: true,
    headers: { 'Content-Type': 'application/json', Accept: 'application/json' },
    body: JSON.stringify(remove ? {} : { value }),
  }).catch(() => {});
}

// ---- queries ----

export const xmpPropertiesQueryOptions = (teamUuid: string) =>
  queryOptions({
    queryKey: metadataKeys.properties(teamUuid),
    queryFn: ({ signal }) => fetchXmpProperties(teamUuid, signal),
    // The catalog ships with the server; it does not change while the page is open.
    staleTime: Number.POSITIVE_INFINITY,
  });

export const useXmpProperties = (teamUuid: string) => useQuery(xmpPropertiesQueryOptions(teamUuid));

export const xmpValuesQueryOptions = (teamUuid: string, projectId: number) =>
  queryOptions({
    queryKey: metadataKeys.values(teamUuid, projectId),
    queryFn: ({ signal }) => fetchXmpValues(teamUuid, projectId, signal),
  });

export const useXmpValues = (teamUuid: string, projectId: number) =>
  useQuery(xmpValuesQueryOptions(teamUuid, projectId));

// ---- mutations ----

export type SaveValueInput = { slot: ValueSlot; value: string };

/**
 * Saves one value (an empty text deletes it). Validation errors are shown at the field; the
 * cache takes the saved value so a later refetch is not needed.
 */
export function useSaveXmpValue(teamUuid: string, projectId: number) {
  const queryClient = useQueryClient();
  const key = metadataKeys.values(teamUuid, projectId);
  return useMutation({
    meta: handlesErrorCodes('ValidationError'),
    mutationFn: async ({ slot, value }: SaveValueInput): Promise<string[]> =>
      value === ''
        ? deleteXmpValue(teamUuid, projectId, slot).then(() => [])
        : putXmpValue(teamUuid, projectId, slot, value).then((answer) => answer.warnings),
    onSuccess: (_warnings, { slot, value }) =>
      queryClient.setQueryData<XmpValues>(key, (data) => (data ? withSavedValue(data, slot, value) : data)),
  });
}

/** Removes an item of a Bag/Seq, a structure item or a language, with its fields. */
export function useDeleteXmpValue(teamUuid: string, projectId: number) {
  const queryClient = useQueryClient();
  const key = metadataKeys.values(teamUuid, projectId);
  return useMutation({
    mutationFn: (slot: ValueSlot) => deleteXmpValue(teamUuid, projectId, slot),
    onMutate: (slot) => {
      queryClient.setQueryData<XmpValues>(key, (data) => (data ? withoutValues(data, slot) : data));
    },
    onError: () => queryClient.invalidateQueries({ queryKey: key }),
  });
}

export function useSetXmpMode(teamUuid: string, projectId: number) {
  const queryClient = useQueryClient();
  const key = metadataKeys.values(teamUuid, projectId);
  return useMutation({
    mutationFn: ({ propertyId, mode }: { propertyId: string; mode: XmpMode }) =>
      putXmpMode(teamUuid, projectId, propertyId, mode),
    // The selector follows at once; a failure brings back the stored mode.
    onMutate: ({ propertyId, mode }) => {
      queryClient.setQueryData<XmpValues>(key, (data) => (data ? withMode(data, propertyId, mode) : data));
    },
    onError: () => queryClient.invalidateQueries({ queryKey: key }),
  });
}

export function useClearXmpValues(teamUuid: string, projectId: number) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: () => deleteXmpValues(teamUuid, projectId),
    onSettled: () => queryClient.invalidateQueries({ queryKey: metadataKeys.values(teamUuid, projectId) }),
  });
}

/** Command storexmpfile: the page reports success and failure itself (spec §8). */
export const useStoreXmpFile = (teamUuid: string) =>
  useCommand(teamUuid, routes.storeXmpFile, handlesAllErrors);

/** Command downloadxmpfile: errors are ignored silently (spec §8). */
export const useDownloadXmpFile = (teamUuid: string) =>
  useCommand(teamUuid, routes.downloadXmpFile, handlesAllErrors);

/** Command processimage: the page shows 'Something went wrong:' itself (spec §8). */
export const useProcessImage = (teamUuid: string) =>
  useCommand(teamUuid, routes.processImage, handlesAllErrors);
