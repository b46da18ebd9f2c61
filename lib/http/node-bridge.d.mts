import type { IncomingMessage, ServerResponse } from 'node:http';

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- each route types its own params
export type WebHandler = (req: Request, ctx: { params: Promise<any> }) => Promise<Response> | Response;

export function matchPath(pattern: string, pathname: string): Record<string, string> | null;
export function serveWithHandler(
  handler: WebHandler,
  params: Record<string, string>,
  req: IncomingMessage,
  res: ServerResponse,
): Promise<void>;
