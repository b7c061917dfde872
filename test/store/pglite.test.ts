import { backends } from '../helpers/db.js'
import { runStoreContract } from './store-contract.case.js'

/** The store contract on embedded PGlite: always runs. */
for (const backend of backends().filter((b) => b.name === 'pglite')) runStoreContract(backend)
