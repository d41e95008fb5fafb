// Responses the proxy creates from text it already holds remember that text, so that the Node
// adapter and the upstream client skip reading it back through a web stream (which costs more
// than the rest of a small JSON answer's handling). Any other Response is read normally.
const texts = new WeakMap<Response, string>();

export function responseWithText(text: string, init: ResponseInit): Response {
  const response = new Response(text, init);
  texts.set(response, text);
  return response;
}

/** The body as text, without a stream read when the proxy made the Response itself. */
export async function textOf(response: Response): Promise<string> {
  const known = texts.get(response);
  if (known !== undefined && !response.bodyUsed) return known;
  return response.text();
}

/** The text of a Response the proxy made itself, or undefined. */
export function knownText(response: Response): string | undefined {
  return response.bodyUsed ? undefined : texts.get(response);
}
