/**
 * Writes a tiny sentence-embedding model that @huggingface/transformers can load from a local directory:
 * a BERT-style WordPiece tokenizer and an ONNX graph whose "last hidden state" is a lookup in a fixed
 * embedding table (one Gather node). The ONNX protobuf is encoded by hand, so no weights are downloaded.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

function varint(value: number): number[] {
  const bytes: number[] = [];
  let rest = value;
  while (rest > 127) {
    bytes.push((rest & 0x7f) | 0x80);
    rest = Math.floor(rest / 128);
  }
  bytes.push(rest);
  return bytes;
}

const key = (field: number, wireType: number) => varint((field << 3) | wireType);
const int = (field: number, value: number) => [...key(field, 0), ...varint(value)];
const bytes = (field: number, payload: number[]) => [...key(field, 2), ...varint(payload.length), ...payload];
const text = (field: number, value: string) => bytes(field, [...Buffer.from(value, 'utf8')]);

const INT64 = 7;
const FLOAT = 1;

function valueInfo(name: string, elemType: number, dims: (number | string)[]): number[] {
  const shape = dims.flatMap((dim) => bytes(1, typeof dim === 'number' ? int(1, dim) : text(2, dim)));
  const tensorType = [...int(1, elemType), ...bytes(2, shape)];
  return [...text(1, name), ...bytes(2, bytes(1, tensorType))];
}

function onnxModel(table: number[][]): Buffer {
  const hidden = table[0].length;
  const raw = Buffer.alloc(table.length * hidden * 4);
  table.flat().forEach((value, i) => {
    raw.writeFloatLE(value, i * 4);
  });
  const initializer = [
    ...int(1, table.length),
    ...int(1, hidden),
    ...int(2, FLOAT),
    ...text(8, 'embeddings'),
    ...bytes(9, [...raw]),
  ];
  const node = [
    ...text(1, 'embeddings'),
    ...text(1, 'input_ids'),
    ...text(2, 'last_hidden_state'),
    ...text(3, 'lookup'),
    ...text(4, 'Gather'),
  ];
  const graph = [
    ...bytes(1, node),
    ...text(2, 'tiny-embedder'),
    ...bytes(5, initializer),
    ...bytes(11, valueInfo('input_ids', INT64, ['batch', 'sequence'])),
    ...bytes(12, valueInfo('last_hidden_state', FLOAT, ['batch', 'sequence', hidden])),
  ];
  const model = [
    ...int(1, 8),
    ...text(2, 'comply-test'),
    ...bytes(7, graph),
    ...bytes(8, [...text(1, ''), ...int(2, 13)]),
  ];
  return Buffer.from(model);
}

const SPECIAL = ['[PAD]', '[UNK]', '[CLS]', '[SEP]'];

/** Word → 3-d vector: logging words point one way, fairness words another. */
const WORDS: Record<string, number[]> = {
  log: [1, 0, 0],
  logs: [0.9, 0.1, 0],
  record: [0.8, 0.2, 0],
  bias: [0, 1, 0],
  fairness: [0.1, 0.9, 0],
  breach: [0, 0, 1],
};

/** Writes `<root>/<modelName>/{config.json, tokenizer.json, tokenizer_config.json, onnx/model.onnx}`. */
export function writeTinyModel(root: string, modelName: string): void {
  const dir = join(root, modelName);
  mkdirSync(join(dir, 'onnx'), { recursive: true });
  const vocabulary = [...SPECIAL, ...Object.keys(WORDS)];
  const table = vocabulary.map((token) => WORDS[token] ?? [0, 0, 0]);
  const special = (id: number) => ({
    id,
    content: SPECIAL[id],
    single_word: false,
    lstrip: false,
    rstrip: false,
    normalized: false,
    special: true,
  });
  const tokenizer = {
    version: '1.0',
    truncation: null,
    padding: null,
    added_tokens: SPECIAL.map((_, id) => special(id)),
    normalizer: {
      type: 'BertNormalizer',
      clean_text: true,
      handle_chinese_chars: true,
      strip_accents: null,
      lowercase: true,
    },
    pre_tokenizer: { type: 'BertPreTokenizer' },
    post_processor: {
      type: 'TemplateProcessing',
      single: [
        { SpecialToken: { id: '[CLS]', type_id: 0 } },
        { Sequence: { id: 'A', type_id: 0 } },
        { SpecialToken: { id: '[SEP]', type_id: 0 } },
      ],
      pair: [
        { SpecialToken: { id: '[CLS]', type_id: 0 } },
        { Sequence: { id: 'A', type_id: 0 } },
        { SpecialToken: { id: '[SEP]', type_id: 0 } },
        { Sequence: { id: 'B', type_id: 1 } },
        { SpecialToken: { id: '[SEP]', type_id: 1 } },
      ],
      special_tokens: {
        '[CLS]': { id: '[CLS]', ids: [2], tokens: ['[CLS]'] },
        '[SEP]': { id: '[SEP]', ids: [3], tokens: ['[SEP]'] },
      },
    },
    decoder: { type: 'WordPiece', prefix: '##', cleanup: true },
    model: {
      type: 'WordPiece',
      unk_token: '[UNK]',
      continuing_subword_prefix: '##',
      max_input_chars_per_word: 100,
      vocab: Object.fromEntries(vocabulary.map((token, id) => [token, id])),
    },
  };
  writeFileSync(join(dir, 'tokenizer.json'), JSON.stringify(tokenizer));
  writeFileSync(
    join(dir, 'tokenizer_config.json'),
    JSON.stringify({
      tokenizer_class: 'BertTokenizer',
      do_lower_case: true,
      model_max_length: 128,
      pad_token: '[PAD]',
      unk_token: '[UNK]',
      cls_token: '[CLS]',
      sep_token: '[SEP]',
    }),
  );
  writeFileSync(
    join(dir, 'config.json'),
    JSON.stringify({
      model_type: 'bert',
      architectures: ['BertModel'],
      hidden_size: 3,
      vocab_size: vocabulary.length,
    }),
  );
  writeFileSync(join(dir, 'onnx', 'model.onnx'), onnxModel(table));
}
