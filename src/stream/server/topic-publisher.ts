import type { TemplatedApp } from 'uWebSockets.js'
import type { FrameSink } from '../sequencer.js'

/**
 * The in-process fan-out: the Sequencer's sink, publishing each frame once on its uWS topic (`app.publish` sends the
 * same bytes to every subscriber). The stream server watches each publish (counts, slow-socket checks) through
 * `observer`, set once it is built: the Sequencer needs the sink before the server exists.
 */
export type PublishObserver = (topic: string, frame: string) => void

export class TopicPublisher implements FrameSink {
  readonly #app: TemplatedApp
  observer: PublishObserver | undefined

  constructor(app: TemplatedApp) {
    this.#app = app
  }

  publish(topic: string, frame: string): void {
    this.observer?.(topic, frame)
    this.#app.publish(topic, frame)
  }
}
