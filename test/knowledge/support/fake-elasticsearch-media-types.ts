/**
 * The fake Elasticsearch's HTTP edge: what reaches the wire (method, path, headers) and Elasticsearch's media-type
 * rules, checked before a request reaches the fake's handlers, as RestRequest + RestCompatibleVersionHelper do:
 * - a header holding a list (`a, b`) or `*\/*` counts as absent (ParsedMediaType treats media ranges as not given);
 * - `compatible-with=N` on Accept must be the server's major or the one before (8.x: 7 or 8; 9.x: 8 or 9);
 * - with a body, the same for Content-Type, and Accept and Content-Type must both name the same version or neither;
 * - a violation is 400 media_type_header_exception "Invalid media-type value on headers [Accept, Content-Type]",
 *   caused by a status_exception with ES's own sentence (e.g. "Accept version must be either version 8 or 7, but
 *   found 9. Accept=…").
 */

export interface WireRequest {
  method: string;
  path: string;
  headers: Record<string, string>;
  /** Whether the request carried a body. */
  hasBody: boolean;
  /** ES's refusal reason (the caused_by sentence) when the media types were refused, else null. */
  refused: string | null;
}

/** The compatible-with version of a header value, null when the header counts as absent or names none. */
function compatVersion(value: string | undefined): number | null {
  if (value == null || value.includes(',') || value.trim() === '*/*') return null;
  const param = value
    .toLowerCase()
    .split(/\s*;/)
    .slice(1)
    .map((p) => p.trim().split('='))
    .find(([k]) => k === 'compatible-with');
  return param ? Number(param[1]) : null;
}

/** ES's answer body for headers a server of `major` refuses, or null when it accepts them. */
export function mediaTypeRefusal(major: number, headers: Record<string, string>, hasBody: boolean): object | null {
  const acceptHeader = headers.accept;
  const typeHeader = headers['content-type'];
  const a = compatVersion(acceptHeader);
  const c = compatVersion(typeHeader);
  const acceptVersion = a ?? major;
  const typeVersion = c ?? major;
  const ok = (v: number) => v === major || v === major - 1;
  let reason: string | null = null;
  if (!ok(acceptVersion))
    reason =
      `Accept version must be either version ${major} or ${major - 1}, but found ${acceptVersion}. ` +
      `Accept=${acceptHeader}`;
  else if (hasBody && !ok(typeVersion))
    reason =
      `Content-Type version must be either version ${major} or ${major - 1}, but found ${typeVersion}. ` +
      `Content-Type=${typeHeader}`;
  else if (hasBody && typeVersion !== acceptVersion)
    reason =
      'A compatible version is required on both Content-Type and Accept headers if either one has requested a ' +
      `compatible version and the compatible versions must match. Accept=${acceptHeader}, Content-Type=${typeHeader}`;
  else if (hasBody && (a === null) !== (c === null))
    reason =
      'A compatible version is required on both Content-Type and Accept headers if either one has requested a ' +
      `compatible version. Accept=${acceptHeader}, Content-Type=${typeHeader}`;
  if (!reason) return null;
  const top = {
    type: 'media_type_header_exception',
    reason: 'Invalid media-type value on headers [Accept, Content-Type]',
  };
  return { error: { root_cause: [top], ...top, caused_by: { type: 'status_exception', reason } }, status: 400 };
}

type ConnectionClass = new (...args: any[]) => { request(params: any, options: any): Promise<any> };

/**
 * The mock's Connection with the wire recorded and the media-type rules of a server of `major()` applied (the mock
 * itself drops headers before its handlers see the request).
 */
export function checkingConnection(Base: ConnectionClass, major: () => number, wire: WireRequest[]): ConnectionClass {
  return class extends Base {
    override request(params: any, options: any): Promise<any> {
      const headers: Record<string, string> = {};
      for (const [k, v] of Object.entries(params.headers ?? {})) headers[k.toLowerCase()] = String(v);
      const hasBody = params.body != null && params.body !== '';
      const refusal = mediaTypeRefusal(major(), headers, hasBody) as {
        error: { caused_by: { reason: string } };
      } | null;
      wire.push({
        method: params.method,
        path: params.path,
        headers,
        hasBody,
        refused: refusal?.error.caused_by.reason ?? null,
      });
      if (!refusal) return super.request(params, options);
      const body = JSON.stringify(refusal);
      return Promise.resolve({
        body,
        statusCode: 400,
        headers: {
          'content-type': 'application/json;charset=utf-8',
          'x-elastic-product': 'Elasticsearch',
          'content-length': String(Buffer.byteLength(body)),
        },
      });
    }
  };
}
