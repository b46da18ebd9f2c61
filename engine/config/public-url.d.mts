export function parsePublicUrl(value: string | undefined): string[];
