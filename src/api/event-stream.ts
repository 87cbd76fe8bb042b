/**
 * The data of the first event of a text/event-stream that carries data (comments such as keep-alives
 * and retry lines are skipped); the stream is closed then. A stream that ends before one throws a
 * NetworkError: the connection dropped.
 */
export async function firstEventData(response: Response): Promise<string> {
  const reader = response.body?.pipeThrough(new TextDecoderStream()).getReader();
  let buffered = '';
  try {
    for (;;) {
      const chunk = reader ? await reader.read() : { done: true as const, value: undefined };
      if (chunk.done) throw new DOMException('the stream ended before an event', 'NetworkError');
      buffered += chunk.value.replace(/\r\n?/g, '\n');
      let end: number;
      while ((end = buffered.indexOf('\n\n')) >= 0) {
        const lines = buffered.slice(0, end).split('\n');
        buffered = buffered.slice(end + 2);
        const data = lines.filter((line) => line.startsWith('data:')).map((line) => line.slice(5).replace(/^ /, ''));
        if (data.length > 0) return data.join('\n');
      }
    }
  } finally {
    void reader?.cancel().catch(() => undefined);
  }
}
