// Code-split components without React.lazy (issue 16). A lazy component that suspends shows its
// Suspense fallback, and React holds back every reveal of suspended content until 300 ms after the
// last fallback appeared: the app's start went through three such boundaries (the screen, the
// project tab, the metadata editor), each waiting up to 300 ms although the code had long arrived.
// A loadable renders its module's component at once when the code is there (started early with
// `preload`), else its fallback until the code arrives as a plain state update.
import { type ComponentType, createElement, useEffect, useState } from 'react';

export type Loadable<P extends object> = ComponentType<P> & {
  /** Starts loading the code (once; again after a failure); resolves with the component. */
  preload: () => Promise<ComponentType<P>>;
};

export function loadable<M, P extends object>(
  load: () => Promise<M>,
  pick: (module: M) => ComponentType<P>,
  Fallback?: ComponentType,
): Loadable<P> {
  let loaded: ComponentType<P> | undefined;
  let pending: Promise<ComponentType<P>> | undefined;
  const preload = () => {
    pending ??= load().then(
      (module) => {
        loaded = pick(module);
        return loaded;
      },
      (error: unknown) => {
        pending = undefined; // the next mount asks again
        throw error;
      },
    );
    return pending;
  };

  function LoadableComponent(props: P) {
    const [state, setState] = useState<{ component?: ComponentType<P>; error?: unknown }>(() => ({
      component: loaded,
    }));
    useEffect(() => {
      if (state.component || state.error) return;
      let current = true;
      preload().then(
        (component) => current && setState({ component }),
        (error: unknown) => current && setState({ error }),
      );
      return () => {
        current = false;
      };
    }, [state]);
    // A failed load goes to the nearest error boundary, as a failed React.lazy does.
    if (state.error) throw state.error;
    const Component = state.component;
    if (Component) return createElement(Component, props);
    return Fallback ? createElement(Fallback) : null;
  }
  return Object.assign(LoadableComponent, { preload });
}
