// Issue 28 item 5: typing into a field whose property is off turns the property on (Replace, or
// the first mode it allows) instead of a disabled field saying "Choose a mode to edit".
import { createContext, useContext } from 'react';

/** Called by an input on each edit; the property card turns an off property on once. */
export const ModeActivationContext = createContext<(() => void) | undefined>(undefined);

export const useModeActivation = () => useContext(ModeActivationContext);
