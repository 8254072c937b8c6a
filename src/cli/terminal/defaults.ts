/** Where the terminal commands look for a sandbox, and with which key, when nothing says otherwise. */
export const DEFAULT_BASE_URL = 'http://127.0.0.1:4400'
/** The default account's key of the shipped fixtures. */
export const DEFAULT_API_KEY = 'sk_test_sandbox_default_key'
