/**
 * What every generated field reads from the form around it: the problems at its path, the `{{` suggestions and the
 * one change handler. A context, so nested fieldsets and array rows need no props threaded through them.
 */
import { createContext, useContext } from 'react';
import type { ProblemView } from '../editor-store';

export type Path = ReadonlyArray<string | number>;

export interface FormContextValue {
  /** Problems at exactly this path (relative to the node: `data.config.model`). */
  problemsAt: (path: string) => ProblemView[];
  suggestions: () => string[];
  onChangeAt: (path: Path, value: unknown) => void;
}

export const FormContext = createContext<FormContextValue | null>(null);
export const useForm = () => useContext(FormContext)!;
