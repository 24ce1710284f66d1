#!/usr/bin/env python3
"""Builds cn-2026.json (the sandbox's wider Combined Nomenclature table) from
the CN 2026 files of xterr/php-cncodes (see SOURCES.md). Usage:

    python3 build-cn.py <dir with cnChapters_2026.json, cnHeadings_2026.json,
                         cnSubheadings_2026.json, messages_it.yaml> > cn-2026.json

Rows `[code, Italian, English]`: every chapter (2 digits) and heading (4
digits); the subheadings (6 digits) of the chapters bench goods come from
(CHAPTERS) with their own text only (electron/sandbox/taric-data.ts joins the
heading's text before it), "Other" left out. Texts as the source gives them
(chapter titles from upper case to sentence case), Italian from its
translation table keyed by the English text; a text without a translation
keeps the English one."""
import json
import sys

import yaml

CHAPTERS = {
    '04', '09', '15', '17', '18', '19', '20', '21', '22', '33', '34', '39', '42', '44', '46', '48', '49',
    '57', '61', '62', '63', '64', '65', '66', '67', '69', '70', '71', '73', '76', '82', '83', '84', '85',
    '87', '90', '91', '92', '94', '95', '96', '97',
}


def clean(s: str) -> str:
    return ' '.join(s.split()).strip()


def sentence(s: str) -> str:
    s = clean(s)
    return s[:1] + s[1:].lower() if s.isupper() else s


def main(src: str) -> None:
    def load(name: str):
        with open(f'{src}/{name}', encoding='utf-8') as f:
            return json.load(f)

    with open(f'{src}/messages_it.yaml', encoding='utf-8') as f:
        it = yaml.safe_load(f)

    def italian(en: str) -> str:
        return it.get(en) or it.get(clean(en)) or en

    rows = []
    for c in load('cnChapters_2026.json'):
        rows.append([c['code'], sentence(italian(c['name'])), sentence(c['name'])])
    headings = {}
    for h in load('cnHeadings_2026.json'):
        headings[h['code']] = (italian(h['name']), h['name'])
        rows.append([h['code'], clean(italian(h['name'])), clean(h['name'])])
    subheadings = load('cnSubheadings_2026.json')
    for s in subheadings:
        # A heading not divided further is listed only as its `xxxx00` subheading: it is a heading too.
        if s['code'].endswith('00') and s['code'][:4] not in headings:
            headings[s['code'][:4]] = (italian(s['name']), s['name'])
            rows.append([s['code'][:4], clean(italian(s['name'])), clean(s['name'])])
    for s in subheadings:
        # Own text only (the sandbox prefixes the heading's when it loads the table); "Other" alone says nothing.
        if s['chapter'] not in CHAPTERS or clean(s['name']) == 'Other':
            continue
        rows.append([s['code'], clean(italian(s['name'])), clean(s['name'])])
    rows.sort(key=lambda r: r[0])
    json.dump(rows, sys.stdout, ensure_ascii=False, separators=(',', ':'))
    sys.stdout.write('\n')


if __name__ == '__main__':
    main(sys.argv[1])
