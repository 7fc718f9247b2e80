/** The text of a tool result's first content item (the fixture answers JSON there). */
export function textOf(result: Record<string, unknown>): string {
  const [first] = result['content'] as { text: string }[];
  return first!.text;
}
