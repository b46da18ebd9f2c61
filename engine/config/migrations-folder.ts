/** Where the migration SQL is, relative to PaiFlow's root folder (PAIFLOW_MIGRATIONS_DIR overrides it). */
export const MIGRATIONS_FOLDER = ['prisma', 'migrations'] as const;
