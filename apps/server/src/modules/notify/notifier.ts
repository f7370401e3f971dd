import type { FastifyBaseLogger } from 'fastify';
import type { Database } from '../../db/database';

export interface OutgoingMessage {
  channel: 'sms' | 'email';
  recipient: string;
  subject?: string;
  body: string;
  /** Files sent with an e-mail (a scheduled report). */
  attachments?: Array<{ filename: string; contentType: string; content: Buffer }>;
}

/**
 * Sends SMS and e-mail. A real deployment plugs in its SMS gateway and SMTP here; nothing that
 * is sent ever goes back in an API answer.
 */
export interface Notifier {
  send(message: OutgoingMessage): Promise<void>;
}

/**
 * The development provider: writes each message to the outbox table, where a developer (or a
 * test) reads the code that a phone or mailbox would have received, and to the server log. With
 * `logBodies` off (NODE_ENV=production by default) the log line keeps the digits out, so log
 * readers cannot use the codes.
 */
export class OutboxNotifier implements Notifier {
  constructor(
    private readonly db: Database,
    private readonly log: FastifyBaseLogger,
    private readonly logBodies: boolean,
  ) {}

  async send(message: OutgoingMessage): Promise<void> {
    await this.db.system(async (sql) => {
      const { rows } = await sql.query<{ id: string }>(
        'INSERT INTO outbox_message (channel, recipient, subject, body) VALUES ($1, $2, $3, $4) RETURNING id::text',
        [message.channel, message.recipient, message.subject ?? null, message.body],
      );
      for (const file of message.attachments ?? [])
        await sql.query(
          'INSERT INTO outbox_attachment (message_id, filename, content_type, content) VALUES ($1, $2, $3, $4)',
          [rows[0]!.id, file.filename, file.contentType, file.content],
        );
    });
    const body = this.logBodies ? message.body : message.body.replace(/\d/g, '•');
    this.log.info(
      { channel: message.channel, recipient: message.recipient },
      `[dev ${message.channel}] to ${message.recipient}: ${body}`,
    );
  }
}
