import { ApiError, detailOf, postJson } from './api.js'
import { byId } from './dom.js'

/**
 * The API key: asked for once, kept in localStorage, and asked for again when the server refuses it (the stream's
 * AUTH_FAILED / close 4401, or a REST 401). The dialog takes a key, or signs up in place (`POST
 * /api/v2/developers/signup`, public) and uses the key the signup returns. With AUTH_REQUIRED=false the page
 * never opens it.
 */
const STORAGE_KEY = 'predmkt.dashboard.apiKey'

export function storedKey(): string | undefined {
  try {
    const key = localStorage.getItem(STORAGE_KEY)
    return key === null || key === '' ? undefined : key
  } catch {
    return undefined // Storage disabled: the page asks each time.
  }
}

function storeKey(key: string): void {
  try {
    localStorage.setItem(STORAGE_KEY, key)
  } catch {
    // Storage disabled: the key lasts as long as the page.
  }
}

export function forgetKey(): void {
  try {
    localStorage.removeItem(STORAGE_KEY)
  } catch {
    // Nothing stored.
  }
}

interface SignupAnswer {
  readonly api_key?: string | null
  readonly detail?: string
}

export class KeyDialog {
  readonly #dialog = byId('auth-dialog', HTMLDialogElement)
  readonly #error = byId('auth-error', HTMLParagraphElement)
  readonly #key = byId('api-key', HTMLInputElement)
  readonly #email = byId('signup-email', HTMLInputElement)
  readonly #company = byId('signup-company', HTMLInputElement)
  readonly #useCase = byId('signup-use-case', HTMLTextAreaElement)
  readonly #submit = byId('signup-submit', HTMLButtonElement)
  readonly #onKey: (key: string) => void

  constructor(onKey: (key: string) => void) {
    this.#onKey = onKey
    // Forms for their Enter key and their semantics; never submitted (the page's CSP allows no form action).
    byId('key-form', HTMLFormElement).addEventListener('submit', (e) => {
      e.preventDefault()
      this.#useKey()
    })
    byId('signup-form', HTMLFormElement).addEventListener('submit', (e) => {
      e.preventDefault()
      void this.#signup()
    })
  }

  open(message = ''): void {
    this.#error.textContent = message
    if (!this.#dialog.open) this.#dialog.showModal()
    this.#key.focus()
  }

  #useKey(): void {
    const key = this.#key.value.trim()
    if (key === '') {
      this.#error.textContent = 'Paste a key, or sign up below.'
      return
    }
    this.#accept(key)
  }

  async #signup(): Promise<void> {
    const body = {
      email: this.#email.value.trim(),
      company: this.#company.value.trim(),
      use_case: this.#useCase.value.trim(),
    }
    if (body.email === '' || body.company === '' || body.use_case === '') {
      this.#error.textContent = 'E-mail, company and use case are all needed to sign up.'
      return
    }
    this.#submit.disabled = true
    this.#error.textContent = 'Signing up…'
    try {
      const res = await postJson<SignupAnswer>('/api/v2/developers/signup', body)
      if (typeof res.body.api_key === 'string') this.#accept(res.body.api_key)
      else
        this.#error.textContent =
          'An account with this e-mail address exists; its key was shown once at signup. Paste that key above.'
    } catch (err) {
      this.#error.textContent = `Signup failed: ${err instanceof ApiError ? err.message : (detailOf(err) ?? String(err))}`
    } finally {
      this.#submit.disabled = false
    }
  }

  #accept(key: string): void {
    storeKey(key)
    this.#key.value = ''
    this.#error.textContent = ''
    this.#dialog.close()
    this.#onKey(key)
  }
}
