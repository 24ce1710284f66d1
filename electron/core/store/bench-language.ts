/**
 * The bench's language (setting `bench.language`): the language the packer
 * chose on the screens, told to the core by the renderer at every start and
 * change (`app.language.set`), so what the core draws and names speaks it too:
 * packing slips, the label preview's notes, the default box names.
 * English until a screen says otherwise (as the station spoke before it knew).
 */
import { z } from 'zod';
import { defineSetting } from './settings-repo';

/** Languages of the bench: Italian or English. */
const BenchLanguage = z.enum(['it', 'en']);

/** Setting `bench.language`, default `en`. */
export const BenchLanguageSetting = defineSetting('bench.language', BenchLanguage, 'en');
