/** Commands of the header, credit, the account screen and the saved platform account (see ./index.ts for the contract as a whole). */
import { z } from 'zod';
import type { CreditBalance } from '../../platform/resources';
import type { PaginatedOf } from '../../platform/common';
import type { CodList, CodListDetail, CreditMovement, Invoice, InvoiceDetail, ReturnList, ReturnListDetail } from '../../platform/finance';
import type { AccountView, AppInfo } from '../views';
import { command, Empty } from './define';

/** Commands of the header, credit, the account screen and the saved platform account. */
export const accountCommands = {
  /** Header data: platform, connection, credit, printer, outbox backlog. */
  'app.info': command<AppInfo>()(Empty),
  /**
   * The bench's language, told by the screens at every start and change (`it` or `en`), so what the
   * core draws and names speaks it too: packing slips, the label preview's notes, default box names.
   * A language other than `it`/`en` is refused naming `language`.
   */
  'app.language.set': command<{ language: 'it' | 'en' }>()(z.object({ language: z.enum(['it', 'en'], { error: 'Language must be it or en' }) })),

  /** Current credit balance (GET /credit). */
  'credit.get': command<CreditBalance>()(Empty),
  /** One page of an account list: credit movements (newest first), invoices, COD lists, return lists. */
  'account.list': command<PaginatedOf<CreditMovement | Invoice | CodList | ReturnList>>()(
    z.object({ list: z.enum(['movements', 'invoices', 'codLists', 'returns']), page: z.number().int().min(1).default(1), perPage: z.number().int().min(1).max(200).default(25) }),
  ),
  /** One invoice with its lines, or one COD / return list with its shipments (GET /invoices/{id}, /cod-lists/{id}, /returns/{id}). */
  'account.detail': command<InvoiceDetail | CodListDetail | ReturnListDetail>()(
    z.object({ list: z.enum(['invoices', 'codLists', 'returns']), id: z.number().int().positive() }),
  ),
  /** An invoice's PDF (GET /invoices/{id}/pdf) as base64; `unavailable` (503) means try later. */
  'account.invoicePdf': command<{ id: number; fileName: string; pdfBase64: string }>()(z.object({ id: z.number().int().positive() })),
  /** Settings › Platform account: what is saved for the next start (never the secret). */
  'account.settings.get': command<AccountView>()(Empty),
  /**
   * Saves the platform account for the next start: URLs and client id in the
   * data folder, the client secret in the OS secret store (Electron
   * safeStorage / OS keyring). Errors: invalid_input naming the field;
   * secret_store_unavailable when this machine has no secret store.
   */
  'account.settings.set': command<{ restartRequired: true }>()(
    z
      .object({
        platformUrl: z.string().trim().min(1, { error: 'Platform URL is required' }).max(2000),
        authUrl: z.string().trim().max(2000).optional(),
        clientId: z.string().trim().min(1, { error: 'Client id is required' }).max(200),
        clientSecret: z.string().min(1, { error: 'Client secret is required' }).max(1000),
      })
      .strict(),
  ),
  /** Forgets the saved account and its secret: the next start is in training mode unless one is given at launch. */
  'account.settings.forget': command<{ restartRequired: true }>()(Empty),
} as const;
