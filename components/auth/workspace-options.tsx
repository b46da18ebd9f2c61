/** The options of a workspace picker (the account menu's switcher, the token form): "name (role)" for each. */
import type { WorkspaceView } from '@/components/api/auth-api';

export function WorkspaceOptions({ workspaces }: { workspaces: WorkspaceView[] }) {
  return (
    <>
      {workspaces.map((w) => (
        <option key={w.id} value={w.id}>
          {w.name} ({w.role})
        </option>
      ))}
    </>
  );
}
