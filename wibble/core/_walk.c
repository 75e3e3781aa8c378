/* The board search of wibble/core/solver.py, compiled.
 *
 * The game counts every word on the board after each refill, to keep at least a
 * floor of words unfound; in Python that count was 40% of a saturated server's CPU
 * (docs/benchmarks-log.md, "Close to the floor"). This module does the same search
 * over the same trie, in C, with the same results in the same order:
 * solver.py's Python search stays the reference, used wherever this module was not
 * built, and the tests compare the two on random boards of every shipped list.
 *
 * The trie (nested dicts, ``""`` marking a word's end: the contract documented in
 * wibble/core/dictionary.py) is first copied into flat arrays (``compile``), once per
 * trie: per edge the bitmask of the letters its node continues with and the index of
 * that node's first edge, edges ordered by letter, so that a step is a popcount and
 * one read of a 16-byte record. The copy also numbers every word (its rank in letter
 * order: the sum, along its path, of the words that sort before each branch taken),
 * so a word reached along several paths is recognised by an integer, without
 * building its string twice.
 *
 * Results are plain Python objects: ``words`` gives a set of words, ``paths`` the
 * first path (tile indices, in search order) of each word, or of each word and set
 * of special tiles crossed, keyed as search.python_paths keys them, and ``groups``
 * those same paths grouped by what scoring sees of them (search.python_groups).
 * ``count`` is ``len(words(...) - excluding)`` without building a string per word: the
 * game's count after every refill, whose hundreds of new strings were most of its time.
 */

#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <stdint.h>
#include <string.h>

#define MAX_LETTERS 64 /* a node's letters are one uint64_t bitmask */
#define MAX_TILES 64   /* the tiles used are one uint64_t bitmask: boards up to 8 x 8 */
#define MAX_SPECIAL 16 /* special tiles crossed: the low bits of a word's key */

/* The trie as compile() first lays it out: nodes, and edges in letter order. */
typedef struct {
    uint64_t mask;  /* the letters this node continues with */
    uint32_t first; /* its first child's place in the edges */
    uint32_t end;   /* 1 if a word ends here */
} Node;

typedef struct {
    uint32_t child;  /* the node it leads to */
    uint32_t before; /* words that sort before any word through this edge, counted from its node */
} Edge;

/* What the walk reads: each edge with a copy of what it needs of the node the edge leads to,
   so that one step reads one 16-byte record. The array is megabytes and a step's read is
   mostly a cache miss: a node and an edge apart were two. */
typedef struct {
    uint64_t mask;       /* the letters the node continues with */
    uint32_t first : 31; /* the node's first step (edge) */
    uint32_t end : 1;    /* a word ends at the node */
    uint32_t before;     /* words that sort before any word through this edge, counted from its parent */
} Step;

typedef struct {
    PyObject_HEAD
    int letters;
    PyObject *index;   /* dict: letter (str) -> its number, 0 .. letters - 1 */
    PyObject *symbols; /* tuple: number -> letter */
    Step root; /* the root, as if an edge led to it */
    Step *step;
} Compiled;

static void compiled_dealloc(Compiled *self) {
    Py_XDECREF(self->index);
    Py_XDECREF(self->symbols);
    PyMem_Free(self->step);
    Py_TYPE(self)->tp_free((PyObject *)self);
}

static PyTypeObject CompiledType = {
    PyVarObject_HEAD_INIT(NULL, 0).tp_name = "wibble.core._walk.Compiled",
    .tp_basicsize = sizeof(Compiled),
    .tp_dealloc = (destructor)compiled_dealloc,
    .tp_flags = Py_TPFLAGS_DEFAULT,
    .tp_doc = "A trie copied into flat arrays for the board search (made by compile()).",
};

/* -- compile ---------------------------------------------------------------------- */

/* Numbers every node reachable from ``node`` (each shared node once), collecting the
   nodes in ``order`` and every letter in ``index``. Depth is a word's length. */
static int number_nodes(PyObject *node, PyObject *seen, PyObject *order, PyObject *index, Py_ssize_t *edges) {
    PyObject *key = PyLong_FromVoidPtr(node);
    if (key == NULL) return -1;
    int known = PyDict_Contains(seen, key);
    if (known != 0) {
        Py_DECREF(key);
        return known < 0 ? -1 : 0;
    }
    PyObject *number = PyLong_FromSsize_t(PyList_GET_SIZE(order));
    int failed = number == NULL || PyDict_SetItem(seen, key, number) < 0 || PyList_Append(order, node) < 0;
    Py_XDECREF(number);
    Py_DECREF(key);
    if (failed) return -1;
    PyObject *letter, *next;
    Py_ssize_t pos = 0;
    while (PyDict_Next(node, &pos, &letter, &next)) {
        if (!PyUnicode_Check(letter)) {
            PyErr_SetString(PyExc_TypeError, "a trie node's keys must be strings");
            return -1;
        }
        if (PyUnicode_GET_LENGTH(letter) == 0) continue; /* "": a word ends here */
        if (!PyDict_CheckExact(next)) {
            PyErr_SetString(PyExc_TypeError, "a trie node's children must be dicts");
            return -1;
        }
        (*edges)++;
        if (PyDict_GetItemWithError(index, letter) == NULL) {
            if (PyErr_Occurred()) return -1;
            PyObject *count = PyLong_FromSsize_t(PyDict_GET_SIZE(index));
            failed = count == NULL || PyDict_SetItem(index, letter, count) < 0;
            Py_XDECREF(count);
            if (failed) return -1;
        }
        if (number_nodes(next, seen, order, index, edges) < 0) return -1;
    }
    return 0;
}

static Py_ssize_t node_number(PyObject *seen, PyObject *node) {
    PyObject *key = PyLong_FromVoidPtr(node);
    if (key == NULL) return -1;
    PyObject *number = PyDict_GetItemWithError(seen, key); /* borrowed */
    Py_DECREF(key);
    if (number == NULL) {
        if (!PyErr_Occurred()) PyErr_SetString(PyExc_RuntimeError, "a trie node was not numbered");
        return -1;
    }
    return PyLong_AsSsize_t(number);
}

/* The bits set in ``x``: the processor's instruction where the build may use it, else the
   same sum in a few shifts, inline (the compiler's fallback is a call per step). */
static inline uint32_t bits_in(uint64_t x) {
#ifdef __POPCNT__
    return (uint32_t)__builtin_popcountll(x);
#else
    x -= (x >> 1) & 0x5555555555555555ull;
    x = (x & 0x3333333333333333ull) + ((x >> 2) & 0x3333333333333333ull);
    x = (x + (x >> 4)) & 0x0f0f0f0f0f0f0f0full;
    return (uint32_t)((x * 0x0101010101010101ull) >> 56);
#endif
}

/* Words in the subtree of each node (memoised in ``words``; 0 means not counted yet,
   as every node holds a word: a node without one would be a dead end, never built). */
static uint32_t count_below(const Node *nodes, Edge *edges, uint32_t node, uint32_t *words) {
    if (words[node]) return words[node];
    uint64_t total = nodes[node].end;
    int children = (int)bits_in(nodes[node].mask);
    for (int k = 0; k < children; k++) {
        Edge *edge = &edges[nodes[node].first + (uint32_t)k];
        edge->before = (uint32_t)total;
        total += count_below(nodes, edges, edge->child, words);
    }
    if (total == 0) total = 1; /* keeps the memo's 0 meaning "not counted" (never used for a rank) */
    words[node] = (uint32_t)total;
    return words[node];
}

static PyObject *walk_compile(PyObject *module, PyObject *root) {
    (void)module;
    if (!PyDict_CheckExact(root)) {
        PyErr_SetString(PyExc_TypeError, "compile() takes a trie's root node (a dict)");
        return NULL;
    }
    PyObject *seen = PyDict_New(), *order = PyList_New(0), *index = PyDict_New();
    Compiled *c = NULL;
    Node *node_at = NULL;
    Edge *edge_at = NULL;
    uint32_t *words = NULL;
    Py_ssize_t edges = 0;
    if (seen == NULL || order == NULL || index == NULL) goto fail;
    if (number_nodes(root, seen, order, index, &edges) < 0) goto fail;
    Py_ssize_t nodes = PyList_GET_SIZE(order);
    if (PyDict_GET_SIZE(index) > MAX_LETTERS) {
        PyErr_Format(PyExc_ValueError, "the trie has %zd letters; the compiled search takes up to %d",
                     PyDict_GET_SIZE(index), MAX_LETTERS);
        goto fail;
    }
    if (nodes >= (Py_ssize_t)UINT32_MAX || edges >= (Py_ssize_t)INT32_MAX) { /* Step.first: 31 bits */
        PyErr_SetString(PyExc_ValueError, "the trie is too large for the compiled search");
        goto fail;
    }
    c = PyObject_New(Compiled, &CompiledType);
    if (c == NULL) goto fail;
    /* PyObject_New leaves the fields unset: clear them, so that a failure below frees only what was made. */
    memset((char *)c + sizeof(PyObject), 0, sizeof(Compiled) - sizeof(PyObject));
    c->letters = (int)PyDict_GET_SIZE(index);
    c->index = index;
    index = NULL;
    c->symbols = PyTuple_New(c->letters);
    node_at = PyMem_Calloc((size_t)nodes, sizeof(Node));
    edge_at = PyMem_Calloc((size_t)edges + 1, sizeof(Edge));
    c->step = PyMem_Calloc((size_t)edges + 1, sizeof(Step));
    words = PyMem_Calloc((size_t)nodes, sizeof(uint32_t));
    if (c->symbols == NULL || !node_at || !edge_at || !c->step || !words) {
        if (!PyErr_Occurred()) PyErr_NoMemory();
        goto fail;
    }
    {
        PyObject *letter, *number;
        Py_ssize_t pos = 0;
        while (PyDict_Next(c->index, &pos, &letter, &number)) {
            Py_INCREF(letter);
            PyTuple_SET_ITEM(c->symbols, PyLong_AsSsize_t(number), letter);
        }
    }
    /* Children in letter order, so a child's place is the popcount of the letters below its own. */
    uint32_t placed = 0;
    for (Py_ssize_t n = 0; n < nodes; n++) {
        PyObject *node = PyList_GET_ITEM(order, n);
        int32_t by_letter[MAX_LETTERS];
        for (int k = 0; k < c->letters; k++) by_letter[k] = -1;
        PyObject *letter, *next;
        Py_ssize_t pos = 0;
        while (PyDict_Next(node, &pos, &letter, &next)) {
            if (PyUnicode_GET_LENGTH(letter) == 0) {
                node_at[n].end = 1;
                continue;
            }
            Py_ssize_t k = PyLong_AsSsize_t(PyDict_GetItem(c->index, letter));
            Py_ssize_t target = node_number(seen, next);
            if (target < 0) goto fail;
            by_letter[k] = (int32_t)target;
            node_at[n].mask |= (uint64_t)1 << k;
        }
        node_at[n].first = placed;
        for (int k = 0; k < c->letters; k++) {
            if (by_letter[k] >= 0) edge_at[placed++].child = (uint32_t)by_letter[k];
        }
    }
    count_below(node_at, edge_at, 0, words);
    for (uint32_t e = 0; e < placed; e++) {
        const Node *to = &node_at[edge_at[e].child];
        c->step[e] = (Step){.mask = to->mask, .first = to->first, .end = to->end, .before = edge_at[e].before};
    }
    c->root = (Step){.mask = node_at[0].mask, .first = node_at[0].first, .end = node_at[0].end, .before = 0};
    PyMem_Free(node_at);
    PyMem_Free(edge_at);
    PyMem_Free(words);
    Py_DECREF(seen);
    Py_DECREF(order);
    return (PyObject *)c;
fail:
    PyMem_Free(node_at);
    PyMem_Free(edge_at);
    PyMem_Free(words);
    Py_XDECREF(c);
    Py_XDECREF(seen);
    Py_XDECREF(order);
    Py_XDECREF(index);
    return NULL;
}

/* -- the search --------------------------------------------------------------------- */

/* Keys already found (a word's rank, shifted, with its special tiles in the low bits):
   open addressing over a power-of-two table; 0 marks an empty slot, so keys are stored + 1. */
typedef struct {
    uint64_t *slots;
    size_t size, used;
} KeySet;

static int keyset_add(KeySet *set, uint64_t key) { /* 1 added, 0 present, -1 no memory */
    key += 1;
    if (2 * (set->used + 1) > set->size) {
        size_t size = set->size ? set->size * 2 : 1024;
        uint64_t *slots = PyMem_Calloc(size, sizeof(uint64_t));
        if (slots == NULL) return -1;
        for (size_t i = 0; i < set->size; i++) {
            uint64_t old = set->slots[i];
            if (!old) continue;
            size_t j = (size_t)(old * 0x9E3779B97F4A7C15ull >> 20) & (size - 1);
            while (slots[j]) j = (j + 1) & (size - 1);
            slots[j] = old;
        }
        PyMem_Free(set->slots);
        set->slots = slots;
        set->size = size;
    }
    size_t j = (size_t)(key * 0x9E3779B97F4A7C15ull >> 20) & (set->size - 1);
    while (set->slots[j]) {
        if (set->slots[j] == key) return 0;
        j = (j + 1) & (set->size - 1);
    }
    set->slots[j] = key;
    set->used++;
    return 1;
}

/* ``groups``: the paths ``paths`` keeps (one per word and set of special tiles crossed), grouped by
   their totals (letters: the tiles' points summed; factor: their factors multiplied; tiles), each
   group holding its least word (code point order: UTF-8's byte order), that word's first path
   with these totals, and that path's place in ``paths``' order. A match's best word is the least
   (-points, word, place) over the groups (solver.best): scoring runs once per group, in Python,
   rather than once per word. */
typedef struct {
    int64_t letters, factor;
    int tiles;
    Py_ssize_t place;
    Py_ssize_t word_size;
    int path[MAX_TILES];
} Group;

typedef struct {
    Group *group;
    char *words;     /* group n's word at words + n * word_cap */
    Py_ssize_t word_cap;
    size_t count, cap;
    uint32_t *slots; /* open addressing: group number + 1, 0 for empty */
    size_t size;
} Groups;

enum { WORDS, PATHS, GROUPS, COUNT };

static void groups_free(Groups *g) {
    PyMem_Free(g->group);
    PyMem_Free(g->words);
    PyMem_Free(g->slots);
}

static size_t groups_hash(int64_t letters, int64_t factor, int tiles, size_t size) {
    uint64_t h = (uint64_t)letters * 0x9E3779B97F4A7C15ull;
    h ^= (uint64_t)factor * 0xC2B2AE3D27D4EB4Full + (uint64_t)tiles;
    h *= 0x165667B19E3779F9ull;
    return (size_t)(h >> 32) & (size - 1);
}

/* The group with these totals; a new one (its word_size 0) if there was none; NULL: no memory. */
static Group *groups_at(Groups *g, int64_t letters, int64_t factor, int tiles) {
    if (2 * (g->count + 1) > g->size) {
        size_t size = g->size ? g->size * 2 : 256;
        uint32_t *slots = PyMem_Calloc(size, sizeof(uint32_t));
        if (slots == NULL) return NULL;
        for (size_t n = 0; n < g->count; n++) {
            const Group *old = &g->group[n];
            size_t j = groups_hash(old->letters, old->factor, old->tiles, size);
            while (slots[j]) j = (j + 1) & (size - 1);
            slots[j] = (uint32_t)(n + 1);
        }
        PyMem_Free(g->slots);
        g->slots = slots;
        g->size = size;
    }
    size_t j = groups_hash(letters, factor, tiles, g->size);
    while (g->slots[j]) {
        Group *held = &g->group[g->slots[j] - 1];
        if (held->letters == letters && held->factor == factor && held->tiles == tiles) return held;
        j = (j + 1) & (g->size - 1);
    }
    if (g->count == g->cap) {
        size_t cap = g->cap ? g->cap * 2 : 64;
        Group *group = PyMem_Realloc(g->group, cap * sizeof(Group));
        if (group == NULL) return NULL;
        g->group = group;
        char *words = PyMem_Realloc(g->words, cap * (size_t)g->word_cap);
        if (words == NULL) return NULL;
        g->words = words;
        g->cap = cap;
    }
    Group *fresh = &g->group[g->count];
    fresh->letters = letters;
    fresh->factor = factor;
    fresh->tiles = tiles;
    fresh->word_size = 0;
    g->slots[j] = (uint32_t)++g->count;
    return fresh;
}

/* True if the UTF-8 word ``a`` sorts before ``b``: byte order is code point order, as str compares. */
static int sorts_before(const char *a, Py_ssize_t a_size, const char *b, Py_ssize_t b_size) {
    int c = memcmp(a, b, (size_t)(a_size < b_size ? a_size : b_size));
    return c < 0 || (c == 0 && a_size < b_size);
}

/* ``count``'s words to leave out, by their UTF-8 bytes: open addressing over a power-of-two
   table of (hash, bytes); the bytes belong to the strings of ``held``, kept alive meanwhile. */
typedef struct {
    PyObject *held;
    uint64_t *hash; /* 0 marks an empty slot (a hash of 0 is stored as 1) */
    const char **text;
    Py_ssize_t *size;
    size_t slots;
} Excluded;

static uint64_t hash_bytes(const char *text, Py_ssize_t size) { /* FNV-1a; never 0 */
    uint64_t h = 0xcbf29ce484222325ull;
    for (Py_ssize_t i = 0; i < size; i++) h = (h ^ (unsigned char)text[i]) * 0x100000001b3ull;
    return h ? h : 1;
}

typedef struct {
    const Compiled *trie;
    int tiles, shortest;
    int letter[MAX_TILES];              /* each tile's letter number, -1 if the trie has none */
    uint64_t bit[MAX_TILES];            /* each special tile's bit (0 for the others) */
    int near[MAX_TILES][8], nears[MAX_TILES]; /* each tile's neighbours with a letter, in rising order */
    const char *utf8[MAX_LETTERS];      /* each letter's UTF-8 bytes, to build a found word */
    Py_ssize_t utf8_size[MAX_LETTERS];
    char *text;                         /* the word so far, as UTF-8 */
    Py_ssize_t word_cap;                /* text's size: the longest word, and one */
    Py_ssize_t length[MAX_TILES + 1];   /* text's length after each depth */
    int path[MAX_TILES];
    KeySet found;
    int mode;                           /* WORDS, PATHS, GROUPS or COUNT */
    Py_ssize_t counted;                 /* COUNT: the distinct words found, less the excluded */
    Excluded excluded;
    PyObject *out;                      /* WORDS: a set of words; PATHS: a dict of first paths */
    /* GROUPS: each path's totals from these, and per distinct totals its least word. */
    int64_t points[MAX_TILES], factor[MAX_TILES];
    Py_ssize_t keys;                    /* paths kept so far: the next one's place in ``paths``' order */
    Groups groups;
} Search;

/* A path ``paths`` would keep, into its group. */
static void excluded_free(Excluded *x) {
    Py_CLEAR(x->held);
    PyMem_Free(x->hash);
    PyMem_Free(x->text);
    PyMem_Free(x->size);
}

/* Reads ``words`` (any iterable of str) into ``x``. */
static int excluded_read(Excluded *x, PyObject *words) {
    x->held = PySequence_Tuple(words); /* a copy: what is read cannot change under the walk */
    if (x->held == NULL) return -1;
    Py_ssize_t count = PyTuple_GET_SIZE(x->held);
    x->slots = 16;
    while (x->slots < 2 * (size_t)count) x->slots *= 2;
    x->hash = PyMem_Calloc(x->slots, sizeof(uint64_t));
    x->text = PyMem_Calloc(x->slots, sizeof(char *));
    x->size = PyMem_Calloc(x->slots, sizeof(Py_ssize_t));
    if (x->hash == NULL || x->text == NULL || x->size == NULL) {
        PyErr_NoMemory();
        return -1;
    }
    for (Py_ssize_t n = 0; n < count; n++) {
        PyObject *word = PyTuple_GET_ITEM(x->held, n);
        if (!PyUnicode_Check(word)) {
            PyErr_SetString(PyExc_TypeError, "excluding must hold strings");
            return -1;
        }
        Py_ssize_t size;
        const char *text = PyUnicode_AsUTF8AndSize(word, &size);
        if (text == NULL) return -1;
        uint64_t h = hash_bytes(text, size);
        size_t j = (size_t)(h * 0x9E3779B97F4A7C15ull >> 20) & (x->slots - 1);
        while (x->hash[j]) j = (j + 1) & (x->slots - 1); /* (a word given twice is stored twice: harmless) */
        x->hash[j] = h;
        x->text[j] = text;
        x->size[j] = size;
    }
    return 0;
}

static int excluded_has(const Excluded *x, const char *text, Py_ssize_t size) {
    uint64_t h = hash_bytes(text, size);
    size_t j = (size_t)(h * 0x9E3779B97F4A7C15ull >> 20) & (x->slots - 1);
    for (; x->hash[j]; j = (j + 1) & (x->slots - 1)) {
        if (x->hash[j] == h && x->size[j] == size && memcmp(x->text[j], text, (size_t)size) == 0) return 1;
    }
    return 0;
}

static int group(Search *s, int depth) {
    const Py_ssize_t place = s->keys++;
    int64_t letters = 0, factor = 1;
    for (int d = 0; d <= depth; d++) {
        const int tile = s->path[d];
        if (__builtin_add_overflow(letters, s->points[tile], &letters) ||
            __builtin_mul_overflow(factor, s->factor[tile], &factor)) {
            PyErr_SetString(PyExc_OverflowError, "a path's totals do not fit in 64 bits");
            return -1;
        }
    }
    Groups *g = &s->groups;
    Group *held = groups_at(g, letters, factor, depth + 1);
    if (held == NULL) {
        PyErr_NoMemory();
        return -1;
    }
    const Py_ssize_t size = s->length[depth + 1];
    char *word = g->words + (held - g->group) * g->word_cap;
    if (held->word_size && !sorts_before(s->text, size, word, held->word_size)) return 0;
    memcpy(word, s->text, (size_t)size);
    held->word_size = size;
    held->place = place;
    memcpy(held->path, s->path, (size_t)(depth + 1) * sizeof(int));
    return 0;
}

/* The groups as a list of (letters, factor, tiles, word, place, path). */
static PyObject *groups_list(Search *s) {
    Groups *g = &s->groups;
    PyObject *out = PyList_New((Py_ssize_t)g->count);
    if (out == NULL) return NULL;
    for (size_t n = 0; n < g->count; n++) {
        const Group *held = &g->group[n];
        PyObject *path = PyList_New(held->tiles);
        if (path == NULL) goto fail;
        for (int d = 0; d < held->tiles; d++) {
            PyObject *tile = PyLong_FromLong(held->path[d]);
            if (tile == NULL) {
                Py_DECREF(path);
                goto fail;
            }
            PyList_SET_ITEM(path, d, tile);
        }
        PyObject *entry = Py_BuildValue(
            "(LLis#nN)", (long long)held->letters, (long long)held->factor, held->tiles,
            g->words + n * g->word_cap, held->word_size, held->place, path
        );
        if (entry == NULL) goto fail;
        PyList_SET_ITEM(out, (Py_ssize_t)n, entry);
    }
    return out;
fail:
    Py_DECREF(out);
    return NULL;
}

static int record(Search *s, int depth, uint64_t rank, uint64_t special) {
    int added = keyset_add(&s->found, rank << MAX_SPECIAL | special);
    if (added <= 0) {
        if (added < 0) PyErr_NoMemory();
        return added;
    }
    if (s->mode == GROUPS) return group(s, depth);
    if (s->mode == COUNT) {
        s->counted += !excluded_has(&s->excluded, s->text, s->length[depth + 1]);
        return 0;
    }
    PyObject *word = PyUnicode_DecodeUTF8(s->text, s->length[depth + 1], "strict");
    if (word == NULL) return -1;
    if (s->mode == WORDS) {
        int failed = PySet_Add(s->out, word);
        Py_DECREF(word);
        return failed;
    }
    PyObject *key = word;
    if (special) {
        PyObject *bits = PyLong_FromUnsignedLongLong(special);
        key = bits == NULL ? NULL : PyTuple_Pack(2, word, bits);
        Py_XDECREF(bits);
        Py_DECREF(word);
        if (key == NULL) return -1;
    }
    PyObject *path = PyList_New(depth + 1);
    if (path == NULL) {
        Py_DECREF(key);
        return -1;
    }
    for (int d = 0; d <= depth; d++) {
        PyObject *tile = PyLong_FromLong(s->path[d]);
        if (tile == NULL) {
            Py_DECREF(path);
            Py_DECREF(key);
            return -1;
        }
        PyList_SET_ITEM(path, d, tile);
    }
    int failed = PyDict_SetItem(s->out, key, path);
    Py_DECREF(path);
    Py_DECREF(key);
    return failed;
}

static void spell(Search *s, int depth, int tile) {
    const int k = s->letter[tile];
    memcpy(s->text + s->length[depth], s->utf8[k], (size_t)s->utf8_size[k]);
    s->length[depth + 1] = s->length[depth] + s->utf8_size[k];
}

/* The step from ``at`` with letter ``k`` (which ``at``'s node continues with). */
static inline const Step *step_to(const Compiled *trie, const Step *at, int k) {
    return &trie->step[at->first + bits_in(at->mask & (((uint64_t)1 << k) - 1))];
}

/* Depth-first from ``tile``, reached by ``here``: the same order as solver.py's walk. */
static int walk(Search *s, int tile, const Step *here, int depth, uint64_t used, uint64_t rank, uint64_t special) {
    s->path[depth] = tile;
    if (depth >= s->shortest && here->end && record(s, depth, rank, special) < 0) return -1;
    used |= (uint64_t)1 << tile;
    /* The neighbours the node continues with, as bits, without a branch per neighbour (which
       way each goes is a coin toss, and mispredicted branches were most of a count's time),
       then taken lowest first: near[] lists them in rising order, as the Python walk visits. */
    uint64_t next_tiles = 0;
    for (int n = 0; n < s->nears[tile]; n++) {
        const int next = s->near[tile][n];
        next_tiles |= (here->mask >> s->letter[next] & 1) << next;
    }
    next_tiles &= ~used;
    while (next_tiles) {
        const int next = __builtin_ctzll(next_tiles);
        next_tiles &= next_tiles - 1;
        const Step *step = step_to(s->trie, here, s->letter[next]);
        spell(s, depth + 1, next);
        if (walk(s, next, step, depth + 1, used, rank + step->before, special | s->bit[next]) < 0) return -1;
    }
    return 0;
}

/* ``items`` as a new tuple (``message`` as the TypeError if it is no sequence): a copy, so that
   converting an item (its __index__, its __eq__) cannot shrink what is being read. */
static PyObject *as_tuple(PyObject *items, const char *message) {
    if (!PySequence_Check(items)) {
        PyErr_SetString(PyExc_TypeError, message);
        return NULL;
    }
    return PySequence_Tuple(items);
}

/* Reads the board (its letters row by row, its side, the special tiles) into ``s``. */
static int prepare(Search *s, Compiled *trie, PyObject *symbols, Py_ssize_t size, int shortest, PyObject *special) {
    memset(s, 0, sizeof(*s));
    s->trie = trie;
    s->shortest = shortest;
    if (size < 1 || size * size > MAX_TILES) {
        PyErr_Format(PyExc_ValueError, "boards from 1 x 1 to 8 x 8 only, not %zd x %zd", size, size);
        return -1;
    }
    PyObject *letters = as_tuple(symbols, "symbols must be a sequence of strings");
    if (letters == NULL) return -1;
    if (PyTuple_GET_SIZE(letters) != size * size) {
        Py_DECREF(letters);
        PyErr_SetString(PyExc_ValueError, "one symbol per tile");
        return -1;
    }
    s->tiles = (int)(size * size);
    for (int i = 0; i < s->tiles; i++) {
        PyObject *number = PyDict_GetItemWithError(trie->index, PyTuple_GET_ITEM(letters, i));
        if (number == NULL && PyErr_Occurred()) {
            Py_DECREF(letters);
            return -1;
        }
        s->letter[i] = number == NULL ? -1 : (int)PyLong_AsLong(number);
    }
    Py_DECREF(letters);
    for (int k = 0; k < trie->letters; k++) {
        s->utf8[k] = PyUnicode_AsUTF8AndSize(PyTuple_GET_ITEM(trie->symbols, k), &s->utf8_size[k]);
        if (s->utf8[k] == NULL) return -1;
    }
    for (int i = 0; i < s->tiles; i++) {
        int row = i / (int)size, col = i % (int)size;
        for (int r = row - 1; r <= row + 1; r++) {
            for (int c = col - 1; c <= col + 1; c++) {
                if (r < 0 || c < 0 || r >= size || c >= size || (r == row && c == col)) continue;
                if (s->letter[r * (int)size + c] < 0) continue; /* a letter no word has: never a step */
                s->near[i][s->nears[i]++] = r * (int)size + c;
            }
        }
    }
    if (special != NULL && special != Py_None) {
        PyObject *tiles = as_tuple(special, "special must be a sequence of tile indices");
        if (tiles == NULL) return -1;
        Py_ssize_t count = PyTuple_GET_SIZE(tiles);
        if (count > MAX_SPECIAL) {
            Py_DECREF(tiles);
            PyErr_Format(PyExc_ValueError, "up to %d special tiles", MAX_SPECIAL);
            return -1;
        }
        for (Py_ssize_t n = 0; n < count; n++) {
            long i = PyLong_AsLong(PyTuple_GET_ITEM(tiles, n));
            if (i < 0 || i >= s->tiles) {
                Py_DECREF(tiles);
                if (!PyErr_Occurred()) PyErr_SetString(PyExc_IndexError, "a special tile is off the board");
                return -1;
            }
            s->bit[i] = (uint64_t)1 << n;
        }
        Py_DECREF(tiles);
    }
    /* The longest word is one letter per tile, each letter at most its longest UTF-8 form. */
    Py_ssize_t widest = 1;
    for (int k = 0; k < trie->letters; k++) widest = s->utf8_size[k] > widest ? s->utf8_size[k] : widest;
    s->word_cap = widest * s->tiles + 1;
    s->text = PyMem_Malloc((size_t)s->word_cap);
    if (s->text == NULL) {
        PyErr_NoMemory();
        return -1;
    }
    return 0;
}

/* ``tiles`` whole numbers from ``numbers`` (one per tile) into ``out``. */
static int read_numbers(PyObject *numbers, int64_t *out, int tiles, const char *what) {
    PyObject *items = as_tuple(numbers, what);
    if (items == NULL) return -1;
    if (PyTuple_GET_SIZE(items) != tiles) {
        Py_DECREF(items);
        PyErr_Format(PyExc_ValueError, "%s: one per tile", what);
        return -1;
    }
    for (int i = 0; i < tiles; i++) {
        out[i] = PyLong_AsLongLong(PyTuple_GET_ITEM(items, i));
        if (out[i] == -1 && PyErr_Occurred()) {
            Py_DECREF(items);
            return -1;
        }
    }
    Py_DECREF(items);
    return 0;
}

static PyObject *search(PyObject *args, int mode) {
    Compiled *trie;
    PyObject *symbols, *special = NULL, *points = NULL, *factors = NULL;
    Py_ssize_t size;
    int shortest;
    PyObject *excluding = NULL;
    if (mode == GROUPS) {
        if (!PyArg_ParseTuple(
                args, "O!OniOOO", &CompiledType, &trie, &symbols, &size, &shortest, &special, &points, &factors
            ))
            return NULL;
    } else if (mode == COUNT) {
        if (!PyArg_ParseTuple(args, "O!OniO", &CompiledType, &trie, &symbols, &size, &shortest, &excluding))
            return NULL;
    } else if (!PyArg_ParseTuple(args, "O!Oni|O", &CompiledType, &trie, &symbols, &size, &shortest, &special)) {
        return NULL;
    }
    Search *s = PyMem_Malloc(sizeof(Search));
    if (s == NULL) return PyErr_NoMemory();
    PyObject *out = NULL;
    if (prepare(s, trie, symbols, size, shortest, mode == WORDS ? NULL : special) < 0) goto done;
    s->mode = mode;
    if (mode == GROUPS) {
        if (read_numbers(points, s->points, s->tiles, "points") < 0 ||
            read_numbers(factors, s->factor, s->tiles, "factors") < 0)
            goto done;
        s->groups.word_cap = s->word_cap;
    } else if (mode == COUNT) {
        if (excluded_read(&s->excluded, excluding) < 0) goto done;
    } else {
        s->out = mode == PATHS ? PyDict_New() : PySet_New(NULL);
        if (s->out == NULL) goto done;
    }
    for (int i = 0; i < s->tiles; i++) {
        const int k = s->letter[i];
        if (k < 0 || !(trie->root.mask >> k & 1)) continue;
        const Step *step = step_to(trie, &trie->root, k);
        s->length[0] = 0;
        spell(s, 0, i);
        if (walk(s, i, step, 0, 0, step->before, s->bit[i]) < 0) goto done;
    }
    if (mode == COUNT) {
        out = PyLong_FromSsize_t(s->counted);
    } else {
        out = mode == GROUPS ? groups_list(s) : s->out;
        s->out = NULL;
    }
done:
    Py_XDECREF(s->out);
    excluded_free(&s->excluded);
    groups_free(&s->groups);
    PyMem_Free(s->found.slots);
    PyMem_Free(s->text);
    PyMem_Free(s);
    return out;
}

static PyObject *walk_words(PyObject *module, PyObject *args) {
    (void)module;
    return search(args, WORDS);
}

static PyObject *walk_paths(PyObject *module, PyObject *args) {
    (void)module;
    return search(args, PATHS);
}

static PyObject *walk_groups(PyObject *module, PyObject *args) {
    (void)module;
    return search(args, GROUPS);
}

static PyObject *walk_count(PyObject *module, PyObject *args) {
    (void)module;
    return search(args, COUNT);
}

static PyMethodDef methods[] = {
    {"compile", walk_compile, METH_O, "compile(root) -> Compiled: a trie's nodes copied into flat arrays."},
    {"words", walk_words, METH_VARARGS,
     "words(compiled, symbols, size, shortest) -> set[str]: every word the board allows."},
    {"paths", walk_paths, METH_VARARGS,
     "paths(compiled, symbols, size, shortest, special=()) -> dict: each word's first path, "
     "keyed (word, special tiles crossed as bits) where it crossed any, else by the word."},
    {"groups", walk_groups, METH_VARARGS,
     "groups(compiled, symbols, size, shortest, special, points, factors) -> list: the paths "
     "paths() keeps, grouped by totals: (letters, factor, tiles, least word, its place, its path)."},
    {"count", walk_count, METH_VARARGS,
     "count(compiled, symbols, size, shortest, excluding) -> int: len(words(...) - set(excluding))."},
    {NULL, NULL, 0, NULL},
};

static struct PyModuleDef module_def = {
    PyModuleDef_HEAD_INIT, "_walk", "The board search of wibble.core.solver, compiled.", -1, methods,
    NULL, NULL, NULL, NULL,
};

PyMODINIT_FUNC PyInit__walk(void) {
    if (PyType_Ready(&CompiledType) < 0) return NULL;
    PyObject *module = PyModule_Create(&module_def);
    if (module == NULL) return NULL;
#ifdef SOURCE_DIGEST
    if (PyModule_AddStringConstant(module, "SOURCE_DIGEST", SOURCE_DIGEST) < 0) {
        Py_DECREF(module);
        return NULL;
    }
#endif
    Py_INCREF(&CompiledType);
    if (PyModule_AddObject(module, "Compiled", (PyObject *)&CompiledType) < 0) {
        Py_DECREF(&CompiledType);
        Py_DECREF(module);
        return NULL;
    }
    return module;
}
