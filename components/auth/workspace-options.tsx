/** The options of a workspace picker (the account menu's switcher, the token form): "name (role)" for each. */
import { useTranslations } from 'next-intl';
import type { WorkspaceView } from '@/components/api/auth-api';

export function WorkspaceOptions({ workspaces }: { workspaces: WorkspaceView[] }) {
  const tc = useTranslations('common');
  return (
    <>
      {workspaces.map((w) => (
        <option key={w.id} value={w.id}>
          {tc('workspaceOption', { name: w.name, role: tc(`roles.${w.role}`) })}
        </option>
      ))}
    </>
  );
}
