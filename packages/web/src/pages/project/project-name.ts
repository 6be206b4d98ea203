// Spec §5 'New project': the name must not be empty; the field takes 64 characters (spec §9).
import { projectName } from '@photorelay/contract/projects';

/** null when valid, else the key of the message under `projects.`. */
export function projectNameProblem(value: string): 'nameRequired' | 'nameTooLong' | null {
  if (projectName.safeParse(value).success) return null;
  return value.trim() === '' ? 'nameRequired' : 'nameTooLong';
}
