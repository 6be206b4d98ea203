// What every input of the metadata tab needs: the project, the stored values, the editor store
// with the unsaved edits, and debug mode. One context instead of threading it through the
// nested structure editors.
import { useQueryClient } from '@tanstack/react-query';
import { createContext, useContext, useEffect, useMemo, useSyncExternalStore } from 'react';
import {
  metadataKeys,
  type SaveValueInput,
  sendValueOnUnload,
  useSaveXmpValue,
  withSavedValue,
  type XmpValue,
  type XmpValues,
} from '../../../api/metadata.ts';
import { type FieldStatus, MetadataEditorStore, type SaveSummary } from './editor-store.ts';
import { indexValues } from './metadata-model.ts';

export type MetadataContextValue = {
  teamUuid: string;
  projectId: number;
  canWrite: boolean;
  debug: boolean;
  language: 'en' | 'de';
  values: XmpValues;
  /** Stored texts by slot key. */
  index: Map<string, string>;
  store: MetadataEditorStore;
};

const MetadataContext = createContext<MetadataContextValue | null>(null);
export const MetadataProvider = MetadataContext.Provider;

export function useMetadata(): MetadataContextValue {
  const context = useContext(MetadataContext);
  if (!context) throw new Error('useMetadata needs a MetadataProvider');
  return context;
}

export const useValueIndex = (values: readonly XmpValue[]) => useMemo(() => indexValues(values), [values]);

// One store per project and team for the whole session: unsaved edits survive switching tabs
// and coming back while their saves are still on the way.
const stores = new Map<string, MetadataEditorStore>();

/**
 * The editor store of a project, wired to the save mutation. Pending edits are flushed when the
 * tab unmounts (leaving the page in the app) and, with keepalive requests, when the document
 * unloads (reload, closing the tab, typing another address).
 */
export function useMetadataEditor(teamUuid: string, projectId: number): MetadataEditorStore {
  const queryClient = useQueryClient();
  const { mutateAsync } = useSaveXmpValue(teamUuid, projectId);
  const key = `${teamUuid}:${projectId}`;
  const store = useMemo(() => {
    let existing = stores.get(key);
    if (!existing) {
      existing = new MetadataEditorStore(() => Promise.reject(new Error('The metadata tab is not open')));
      stores.set(key, existing);
    }
    return existing;
  }, [key]);

  useEffect(() => {
    store.setSaver((input: SaveValueInput, { urgent }) => {
      if (!urgent) return mutateAsync(input);
      sendValueOnUnload(teamUuid, projectId, input.slot, input.value);
      // Should the page stay after all (a cancelled unload), it shows what was sent.
      queryClient.setQueryData<XmpValues>(metadataKeys.values(teamUuid, projectId), (data) =>
        data ? withSavedValue(data, input.slot, input.value) : data,
      );
      return Promise.resolve();
    });
  }, [store, mutateAsync, queryClient, teamUuid, projectId]);

  useEffect(() => {
    const onUnload = () => void store.flush({ urgent: true });
    window.addEventListener('beforeunload', onUnload);
    window.addEventListener('pagehide', onUnload);
    return () => {
      window.removeEventListener('beforeunload', onUnload);
      window.removeEventListener('pagehide', onUnload);
      void store.flush();
    };
  }, [store]);

  return store;
}

export function useDraft(key: string): string | undefined {
  const { store } = useMetadata();
  return useSyncExternalStore(store.subscribe, () => store.draft(key));
}

export function useFieldStatus(key: string): FieldStatus | undefined {
  const { store } = useMetadata();
  return useSyncExternalStore(store.subscribe, () => store.status(key));
}

export function useAddedItems(container: string): readonly number[] {
  const { store } = useMetadata();
  return useSyncExternalStore(store.subscribe, () => store.addedItems(container));
}

export function useAddedLanguages(propertyId: string): readonly string[] {
  const { store } = useMetadata();
  return useSyncExternalStore(store.subscribe, () => store.addedLanguages(propertyId));
}

export function useSaveSummary(store: MetadataEditorStore): SaveSummary {
  return useSyncExternalStore(store.subscribe, store.summary);
}
