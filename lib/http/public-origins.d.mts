export function publicOrigins(env?: NodeJS.ProcessEnv): string[];
export function hostChecker(env?: NodeJS.ProcessEnv): (host: string | undefined, forwardedHost?: string) => boolean;
export function hostRefusal(host: string | undefined): string;
