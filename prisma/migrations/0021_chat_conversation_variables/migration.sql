-- A chat conversation's variables (issue 45): name → value, written by the runs of its turns that succeed.
ALTER TABLE "chat_conversations" ADD COLUMN "variables" JSONB;
