type Env = Record<string, string | undefined>;
export function publicOrigins(env: Env): string[];
export function hostChecker(env: Env): (host: string | undefined, forwardedHost?: string) => boolean;
export function hostRefusal(host: string | undefined): string;
