/** The stream client's public surface. Everything but node-client.ts and ws-transport.ts is free of Node APIs. */
export * from './book-assembler.js'
export * from './crc32.js'
export * from './reconnect-policy.js'
export * from './stream-client.js'
export * from './stream-tracker.js'
export * from './top-list-assembler.js'
export * from './transport.js'
export * from './wire.js'
