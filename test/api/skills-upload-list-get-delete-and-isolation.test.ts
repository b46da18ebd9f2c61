// Guarantees: the skills API contract (test/api/skills-api-suite.ts) on the embedded database: editors upload, replace
// and delete a workspace's skills, viewers only read; SKILLS_DIR skills are listed read-only; an upload wins over a
// folder skill of its name in its workspace only; another workspace's upload is 404; bad uploads are 400 SKILL_INVALID.
import { useFreshDataDir } from './api-helpers';
import { skillsApiSuite } from './skills-api-suite';

useFreshDataDir('paiflow-skills-api-');
skillsApiSuite();
