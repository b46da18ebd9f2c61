// Guarantees: chat apps' conversations and messages (ChatStore, engine/store/chat.ts) are kept alike on the embedded
// database and on PostgreSQL: messages numbered in order also under concurrent appends, answers with their run,
// citations and feedback, nothing found across workflows, and the chat app's secrets only through secretsOf.
import { storeKinds } from '../support/databases';
import { describeChatStore } from './support/describe-chat-store';
import { storesOnTestDb } from './support/stores-under-test';

for (const kind of await storeKinds()) describeChatStore(kind, storesOnTestDb(kind));
