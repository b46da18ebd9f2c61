/**
 * What a failed store call means, whatever database is behind it: callers outside engine/store ask these instead of
 * reading a driver's error codes (those are recognised in engine/store/prisma/errors.ts).
 */
export { isDatabaseUnreachable, isUniqueViolation } from '../prisma/errors';
