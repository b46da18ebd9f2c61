// Guarantees: agent skills uploaded to a workspace are kept alike on the embedded database and on PostgreSQL — files
// exactly, a re-upload replacing every file, names per workspace, another workspace's skill not found
// (SkillUploadStore, engine/agent/skills/types.ts).
import { storeKinds } from '../support/databases';
import { describeSkillStore } from './support/describe-skill-store';
import { storesOnTestDb } from './support/stores-under-test';

for (const kind of await storeKinds()) describeSkillStore(kind, storesOnTestDb(kind));
