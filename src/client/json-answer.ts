/** The body of a sandbox answer, as the clients read it: JSON when it is, and its text to quote when it is not. */
export interface JsonAnswer {
  text: string
  payload: { data?: unknown; request_id?: string; error?: { type?: string; code?: string; message?: string; param?: string } } | undefined
}

export async function readJsonAnswer(res: Response): Promise<JsonAnswer> {
  const text = await res.text()
  try {
    return { text, payload: text ? JSON.parse(text) : undefined }
  } catch {
    return { text, payload: undefined }
  }
}
