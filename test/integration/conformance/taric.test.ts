/**
 * Conformance: GET /taric (spec: Endpoints > Customs codes; Limits: `q` min 3
 * characters, `limit` default 25, max 100) over HTTP, and the integrity of
 * the sandbox's Combined Nomenclature subset.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Sandbox } from '../../../electron/sandbox/index';
import { TARIC_ROWS } from '../../../electron/sandbox/taric-data';
import { TARIC_WORDS } from '../../../electron/sandbox/taric-words';
import { TaricResponse } from '../../../shared/platform/lookups';
import { MONDAY_2026_09_14, start, type Caller, type ErrorBody } from '../sandbox/helpers';

describe('conformance: GET /taric', () => {
  let sb: Sandbox;
  let a: Caller;
  beforeAll(async () => {
    ({ sb, a } = await start({ clock: MONDAY_2026_09_14 }));
  });
  afterAll(async () => {
    await sb.close();
  });

  async function search(query: string) {
    const r = await a('GET', `/taric?${query}`);
    expect(r.status, JSON.stringify(r.body)).toBe(200);
    return TaricResponse.parse(r.body).data;
  }

  it('finds a heading by code prefix, in code order, with Italian and English descriptions', async () => {
    const data = await search('q=6109');
    expect(data.map((d) => d.code)).toEqual(['6109', '610910', '61091000', '610990']);
    expect(data[0]).toEqual({ code: '6109', description: 'T-shirts e canottiere (magliette), a maglia', descriptionEn: 'T-shirts, singlets and other vests, knitted or crocheted' });
    // Spaces and dots in a code are ignored.
    expect((await search('q=6109.10')).map((d) => d.code)).toEqual(['610910', '61091000']);
    expect((await search('q=0901%2021')).map((d) => d.code)).toEqual(['090121', '09012100']);
  });

  it('answers the known levels of a code longer than the table (a 10-digit TARIC code)', async () => {
    expect((await search('q=6109100010')).map((d) => d.code)).toEqual(['61', '6109', '610910', '61091000']);
  });

  it('finds words in Italian or English, ignoring case and accents, every word starting a word of the description', async () => {
    const coffee = await search('q=caffè');
    expect(coffee.map((d) => d.code)).toContain('0901');
    expect(await search('q=CAFFE')).toEqual(coffee);
    expect((await search('q=coffee')).map((d) => d.code)).toContain('0901');
    const wine = await search('q=wine');
    expect(wine.map((d) => d.code)).toContain('2204');
    expect(wine.find((d) => d.code === '2204')?.description).toMatch(/^Vini di uve fresche, compresi i vini arricchiti d'alcole; mosti di uva/);
    expect((await search('q=orolog')).map((d) => d.code)).toEqual(expect.arrayContaining(['91', '9101', '9102', '910211', '910221']));
    const handbags = await search('q=handbags%20leather');
    expect(handbags.map((d) => d.code)).toEqual(expect.arrayContaining(['4202', '420221', '42022100']));
    expect((await search('q=borsette%20cuoio')).map((d) => d.code)).toEqual(expect.arrayContaining(['4202', '420221', '42022100']));
    expect((await search('q=t-shirt%20cotton')).map((d) => d.code)).toEqual(expect.arrayContaining(['610910', '61091000']));
    expect(await search('q=xyzzy')).toEqual([]);
  });

  it.each([
    // Words in any order, joining words ignored, singular or plural, Italian or English.
    ['vaso in ceramica', ['6912', '6913']],
    ['ceramica vaso', ['6912', '6913']],
    ['vasi ceramiche', ['6912', '6913']],
    ['ceramic vases', ['6912', '6913']],
    ['tazze', ['6911', '6912']],
    ['tazza porcellana', ['6911']],
    ['mugs', ['6911', '6912']],
    ['magliette', ['6109']],
    ['maglietta cotone', ['610910']],
    ['scarpe', ['64', '6403']],
    ['scarpa', ['64', '6403']],
    ['shoes', ['64', '6403']],
    ['calzature cuoio', ['6403']],
    ['orologi', ['9102']],
    ['libri', ['4901']],
  ])('"%s" finds %j', async (q, codes) => {
    const found = (await search(`q=${encodeURIComponent(q)}&limit=100`)).map((d) => d.code);
    expect(found).toEqual(expect.arrayContaining(codes));
  });

  it('does not match a word of the query inside another word, nor a stem across unrelated words', async () => {
    // "tazze" must not find T-shirts; "vaso" must not find "vasellame"-only headings of metal.
    const cups = (await search('q=tazze&limit=100')).map((d) => d.code);
    expect(cups.some((c) => c.startsWith('61'))).toBe(false);
    const vases = (await search('q=vaso%20in%20ceramica&limit=100')).map((d) => d.code);
    expect(vases.every((c) => c.startsWith('69'))).toBe(true);
  });

  it('answers joining words alone as typed', async () => {
    expect((await search('q=and&limit=3')).length).toBe(3);
  });

  it.each([
    ['8471', 'Automatic data-processing machines'],
    ['8517', 'Telephone sets, including smartphones'],
    ['3304', 'Beauty or make-up preparations'],
    ['9503', 'Tricycles, scooters, pedal cars'],
    ['6912', 'Ceramic tableware, kitchenware'],
    ['7113', 'Articles of jewellery'],
    ['1905', "Bread, pastry, cakes, biscuits and other bakers' wares"],
    ['6403', 'Footwear with outer soles of rubber, plastics, leather or composition leather and uppers of leather'],
    ['4202', 'Trunks, suitcases'],
    ['4901', 'Printed books, brochures, leaflets'],
    ['9102', 'Wristwatches, pocket-watches and other watches'],
    ['0901', 'Coffee, whether or not roasted or decaffeinated'],
  ])('has heading %s (%s)', async (code, en) => {
    const hit = (await search(`q=${code}`)).find((d) => d.code === code);
    expect(hit?.descriptionEn?.startsWith(en)).toBe(true);
    expect(hit?.description.length).toBeGreaterThan(3);
  });

  it('applies limit: default 25, at most 100', async () => {
    // "and" is in most English descriptions.
    const all = await search('q=and&limit=100');
    expect(all).toHaveLength(100);
    expect(await search('q=and')).toEqual(all.slice(0, 25));
    expect(await search('q=and&limit=3')).toEqual(all.slice(0, 3));
    const codes = all.map((d) => d.code);
    expect(codes).toEqual([...codes].sort());
  });

  it.each([
    ['', 'q'],
    ['q=', 'q'],
    ['q=ab', 'q'],
    ['q=%20ab%20', 'q'],
    ['q=610', undefined],
    ['q=shirt&limit=0', 'limit'],
    ['q=shirt&limit=101', 'limit'],
    ['q=shirt&limit=ten', 'limit'],
    ['q=shirt&limit=2.5', 'limit'],
  ])('validates "%s"', async (query, key) => {
    const r = await a<ErrorBody>('GET', `/taric?${query}`);
    if (key === undefined) {
      expect(r.status).toBe(200);
      return;
    }
    expect(r.status).toBe(422);
    expect(r.body.error.code).toBe('validation_failed');
    expect(r.body.error.details).toHaveProperty([key]);
  });

  it('needs a token', async () => {
    const r = await fetch(`${sb.baseUrl}/taric?q=wine`, { headers: { accept: 'application/json' } });
    expect(r.status).toBe(401);
  });
});

describe('the Combined Nomenclature subset', () => {
  it('holds the chapters and headings of the CN, unique codes in order, every chapter but the reserved 77, each level under a known parent', () => {
    const codes = TARIC_ROWS.map(([c]) => c);
    expect(codes.length).toBeGreaterThanOrEqual(300);
    expect(new Set(codes).size).toBe(codes.length);
    expect(codes).toEqual([...codes].sort());
    const chapters = codes.filter((c) => c.length === 2);
    // Chapters 01-97 and 98 (complete industrial plant) of the CN, 77 reserved.
    expect(chapters).toHaveLength(97);
    expect(chapters).not.toContain('77');
    for (const c of codes) {
      expect([2, 4, 6, 8]).toContain(c.length);
      if (c.length > 2) expect(chapters).toContain(c.slice(0, 2));
      if (c.length === 6) expect(codes).toContain(c.slice(0, 4));
      if (c.length === 8) expect(codes).toContain(c.slice(0, 6));
    }
    // Every heading of CN 2026 (data/SOURCES.md), and the subheadings of the bench's chapters.
    expect(codes.filter((c) => c.length === 4).length).toBeGreaterThanOrEqual(950);
    expect(codes.filter((c) => c.length === 6).length).toBeGreaterThanOrEqual(800);
    for (const [, it, en] of TARIC_ROWS) {
      expect(it.trim()).not.toBe('');
      expect(en.trim()).not.toBe('');
    }
    // Every everyday name belongs to a code of the table.
    for (const code of Object.keys(TARIC_WORDS)) expect(codes).toContain(code);
  });
});
