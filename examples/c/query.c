/*
 * query.c: the silknav C API answering queries as the `silknav` command line does.
 *
 *     query WORLD COMMAND [BUDGET] < QUERIES
 *
 * loads the world folder WORLD (a data root or its navmesh folder) and answers one query per
 * line of standard input with the command line's text answer, so that
 *
 *     silknav COMMAND WORLD < QUERIES
 *
 * prints the very same bytes. COMMAND is cell, height or snap (lines `X Z` or `X Z Y`), los
 * or move (`X1 Z1 X2 Z2` or `X1 Z1 X2 Z2 Y`), or path and path-exact (`silknav path --exact`;
 * lines `X1 Z1 X2 Z2`; BUDGET limits a path search as --budget does). `#` starts a comment; blank lines get no answer. Heights of
 * lines without a reference height are answered in one batch (silknav_heights), paths always
 * (silknav_paths); the rest one call at a time.
 *
 * Build (after `cargo build --release -p silknav-capi`):
 *
 *     cc -std=c11 -O2 -I crates/silknav-capi/include examples/c/query.c \
 *        target/release/libsilknav_capi.a -lpthread -ldl -lm -o query
 *
 * Exit status: 0 when every query was answered, 2 on an error (the message on stderr).
 */

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "silknav.h"

/* One query: up to five numbers. */
typedef struct {
    double v[5];
    int n;
} query;

/* Whether the decimal text reads back to v (as a float, with `single`). */
static int reads_back(const char *text, double v, int single) {
    return single ? strtof(text, NULL) == (float)v : strtod(text, NULL) == v;
}

/* printf rounds a value exactly halfway between two `precision`-digit decimals to the even
 * one; Rust's shortest form takes the one away from zero. When v is such a tie, rewrites
 * `buf` (printf's `%.*e` form) to that one, if it reads back to v too. */
static void round_tie_away(char *buf, size_t size, int precision, double v, int single) {
    char exact[160];
    snprintf(exact, sizeof exact, "%.120e", fabs(v)); /* every digit of the binary value */
    char digits[130];
    int n = 0;
    const char *p = exact;
    for (; *p != 'e'; p++) {
        if (*p != '.') {
            digits[n++] = *p;
        }
    }
    int exponent = atoi(p + 1);
    if (precision >= n || digits[precision] != '5') {
        return;
    }
    for (int i = precision + 1; i < n; i++) {
        if (digits[i] != '0') {
            return; /* above the midpoint: printf rounded up already */
        }
    }
    /* The first `precision` digits, plus one in the last place. */
    int i = precision - 1;
    while (i >= 0 && digits[i] == '9') {
        digits[i--] = '0';
    }
    if (i < 0) {
        memmove(digits + 1, digits, (size_t)precision);
        digits[0] = '1';
        exponent++;
    } else {
        digits[i]++;
    }
    char candidate[48];
    int at = snprintf(candidate, sizeof candidate, "%s%c", v < 0 ? "-" : "", digits[0]);
    if (precision > 1) {
        at += snprintf(candidate + at, sizeof candidate - (size_t)at, ".%.*s", precision - 1, digits + 1);
    }
    snprintf(candidate + at, sizeof candidate - (size_t)at, "e%+03d", exponent);
    if (reads_back(candidate, v, single)) {
        snprintf(buf, size, "%s", candidate);
    }
}

/* Writes a double (or, with `single`, the float it holds) as Rust's `Display` does: the
 * shortest digits that read back to the same value, in plain decimal notation. */
static void put_number(double v, int single) {
    if (isnan(v)) {
        fputs("NaN", stdout);
        return;
    }
    if (isinf(v)) {
        fputs(v < 0 ? "-inf" : "inf", stdout);
        return;
    }
    char buf[48];
    int precision = 1;
    for (; precision <= 17; precision++) {
        snprintf(buf, sizeof buf, "%.*e", precision - 1, v);
        if (reads_back(buf, v, single)) {
            break;
        }
    }
    round_tie_away(buf, sizeof buf, precision, v, single);
    /* buf is [-]D[.DDD]e(+|-)XX: split it into sign, digits and exponent. */
    const char *p = buf;
    if (*p == '-') {
        putchar('-');
        p++;
    }
    char digits[24];
    int n = 0;
    for (; *p != 'e'; p++) {
        if (*p != '.') {
            digits[n++] = *p;
        }
    }
    int exponent = atoi(p + 1);
    while (n > 1 && digits[n - 1] == '0') {
        n--;
    }
    if (exponent >= n - 1) {
        fwrite(digits, 1, (size_t)n, stdout);
        for (int i = 0; i < exponent - (n - 1); i++) {
            putchar('0');
        }
    } else if (exponent >= 0) {
        fwrite(digits, 1, (size_t)exponent + 1, stdout);
        putchar('.');
        fwrite(digits + exponent + 1, 1, (size_t)(n - exponent - 1), stdout);
    } else {
        fputs("0.", stdout);
        for (int i = 0; i < -exponent - 1; i++) {
            putchar('0');
        }
        fwrite(digits, 1, (size_t)n, stdout);
    }
}

static void put_point(double x, double z) {
    put_number(x, 0);
    putchar(' ');
    put_number(z, 0);
}

static int fail(const char *what) {
    const char *message = silknav_last_error_message();
    fprintf(stderr, "query: %s: %s\n", what, message ? message : "(no message)");
    return 2;
}

/* Reads the queries of standard input: returns how many, or -1 on a malformed line. */
static long read_queries(query **out) {
    size_t capacity = 1024, count = 0;
    query *queries = malloc(capacity * sizeof *queries);
    char line[4096];
    long number = 0;
    while (queries && fgets(line, sizeof line, stdin)) {
        number++;
        char *comment = strchr(line, '#');
        if (comment) {
            *comment = '\0';
        }
        query q = {{0}, 0};
        char *word = strtok(line, " \t\r\n");
        while (word) {
            char *end;
            double v = strtod(word, &end);
            if (*end != '\0' || q.n == 5 || !isfinite(v)) {
                fprintf(stderr, "query: line %ld: expected at most 5 finite numbers\n", number);
                free(queries);
                return -1;
            }
            q.v[q.n++] = v;
            word = strtok(NULL, " \t\r\n");
        }
        if (q.n == 0) {
            continue;
        }
        if (count == capacity) {
            capacity *= 2;
            query *grown = realloc(queries, capacity * sizeof *queries);
            if (!grown) {
                free(queries);
                return -1;
            }
            queries = grown;
        }
        queries[count++] = q;
    }
    *out = queries;
    return queries ? (long)count : -1;
}

/* A cell as the command line names it: `RRRR C`, or `RRRR C object OOOO:UID T` on an object. */
static void put_cell(const silknav_cell_result *cell) {
    printf("%04x %u", cell->region, cell->cell);
    if (cell->on_object) {
        printf(" object %04x:%u %u", cell->object_owner, cell->object_uid, cell->object_cell);
    }
}

static int answer_cell(const silknav_world *world, const query *q) {
    silknav_cell_result cell;
    silknav_status status = q->n == 3 ? silknav_cell_y(world, q->v[0], q->v[1], (float)q->v[2], &cell)
                                      : silknav_cell(world, q->v[0], q->v[1], &cell);
    if (status < 0) {
        return fail("cell");
    }
    if (status == SILKNAV_NO) {
        puts("none");
        return 0;
    }
    put_cell(&cell);
    putchar('\n');
    return 0;
}

static int answer_heights(const silknav_world *world, const query *queries, size_t n) {
    int all_plain = 1;
    for (size_t i = 0; i < n; i++) {
        all_plain &= queries[i].n == 2;
    }
    float *heights = malloc((n ? n : 1) * sizeof *heights);
    if (!heights) {
        return 2;
    }
    if (all_plain) {
        /* One batch on all cores: NaN where there is no height. */
        double *xz = malloc((n ? n : 1) * 2 * sizeof *xz);
        if (!xz) {
            free(heights);
            return 2;
        }
        for (size_t i = 0; i < n; i++) {
            xz[2 * i] = queries[i].v[0];
            xz[2 * i + 1] = queries[i].v[1];
        }
        silknav_status status = silknav_heights(world, xz, n, heights);
        free(xz);
        if (status != SILKNAV_OK) {
            free(heights);
            return fail("heights");
        }
    } else {
        for (size_t i = 0; i < n; i++) {
            const query *q = &queries[i];
            silknav_status status = q->n == 3
                ? silknav_height_y(world, q->v[0], q->v[1], (float)q->v[2], &heights[i])
                : silknav_height(world, q->v[0], q->v[1], &heights[i]);
            if (status < 0) {
                free(heights);
                return fail("height");
            }
        }
    }
    for (size_t i = 0; i < n; i++) {
        /* A world's heights are finite: NaN here is "none" (silknav_height says so too). */
        if (isnan(heights[i])) {
            fputs("none", stdout);
        } else {
            put_number(heights[i], 1);
        }
        putchar('\n');
    }
    free(heights);
    return 0;
}

static int answer_los(const silknav_world *world, const query *q) {
    silknav_hit hit;
    silknav_status status = q->n == 5
        ? silknav_raycast_y(world, q->v[0], q->v[1], q->v[2], q->v[3], (float)q->v[4], &hit)
        : silknav_raycast(world, q->v[0], q->v[1], q->v[2], q->v[3], &hit);
    if (status < 0) {
        return fail("raycast");
    }
    if (status == SILKNAV_OK) {
        puts("clear");
    } else if (hit.reason != SILKNAV_REASON_NONE) {
        printf("none %s\n", silknav_reason_word(hit.reason));
    } else {
        fputs("blocked ", stdout);
        put_point(hit.x, hit.z);
        if (hit.object_edge.kind != SILKNAV_OBJECT_EDGE_NONE) {
            const char *kind = hit.object_edge.kind == SILKNAV_OBJECT_EDGE_OUTLINE ? "outline" : "inline";
            printf(" object %04x:%u %s %u", hit.object_edge.owner, hit.object_edge.uid, kind,
                   hit.object_edge.index);
        }
        putchar('\n');
    }
    return 0;
}

static int answer_move(const silknav_world *world, const query *q) {
    silknav_move_result walk;
    float y = q->n == 5 ? (float)q->v[4] : NAN;
    silknav_status status = silknav_move_with(world, q->v[0], q->v[1], q->v[2], q->v[3], y, 0, &walk);
    if (status < 0) {
        return fail("move");
    }
    if (status == SILKNAV_NO) {
        printf("none %s\n", silknav_reason_word(walk.reason));
        return 0;
    }
    static const char *const stops[] = {"arrived", "wall", "no-edge", "object-wall", "transition", "looped"};
    put_point(walk.x, walk.z);
    printf(" %s height ", stops[walk.stop]);
    put_number(walk.height, 1);
    fputs(" cell ", stdout);
    put_cell(&walk.cell);
    if (walk.stop == SILKNAV_STOP_WALL) {
        printf(" edge %04x %s %u", walk.edge.region, walk.edge.kind == SILKNAV_EDGE_INTERNAL ? "internal" : "global",
               walk.edge.index);
    } else if (walk.stop == SILKNAV_STOP_OBJECT_WALL) {
        const char *kind = walk.object_edge.kind == SILKNAV_OBJECT_EDGE_OUTLINE ? "outline" : "inline";
        printf(" edge object %04x:%u %s %u", walk.object_edge.owner, walk.object_edge.uid, kind,
               walk.object_edge.index);
    }
    putchar('\n');
    return 0;
}

/* The walkable point nearest the query, within 100 units (`silknav snap`'s default). */
static int answer_snap(const silknav_world *world, const query *q) {
    silknav_snap_result snap;
    silknav_status status = q->n == 3 ? silknav_snap_y(world, q->v[0], q->v[1], (float)q->v[2], 100.0, &snap)
                                      : silknav_snap(world, q->v[0], q->v[1], 100.0, &snap);
    if (status < 0) {
        return fail("snap");
    }
    if (status == SILKNAV_NO) {
        puts("none");
        return 0;
    }
    put_point(snap.x, snap.z);
    fputs(" distance ", stdout);
    put_number(snap.distance, 0);
    fputs(" cell ", stdout);
    put_cell(&snap.cell);
    putchar('\n');
    return 0;
}

static int answer_paths(const silknav_world *world, const query *queries, size_t n, int64_t budget, int exact) {
    double *segments = malloc((n ? n : 1) * 4 * sizeof *segments);
    silknav_path *paths = malloc((n ? n : 1) * sizeof *paths);
    if (!segments || !paths) {
        free(segments);
        free(paths);
        return 2;
    }
    for (size_t i = 0; i < n; i++) {
        memcpy(&segments[4 * i], queries[i].v, 4 * sizeof(double));
    }
    silknav_path_options options = {.flags = exact ? SILKNAV_PATH_EXACT : 0};
    silknav_status status = silknav_paths_with(world, segments, n, budget, &options, paths);
    free(segments);
    if (status != SILKNAV_OK) {
        free(paths);
        return fail("paths");
    }
    for (size_t i = 0; i < n; i++) {
        silknav_path *path = &paths[i];
        if (path->reason != SILKNAV_REASON_NONE) {
            printf("none %s\n", silknav_reason_word(path->reason));
        } else {
            printf("%.3f", path->length);
            for (size_t k = 0; k < path->count; k++) {
                putchar(' ');
                put_point(path->waypoints[2 * k], path->waypoints[2 * k + 1]);
            }
            putchar('\n');
        }
        /* Each result owns its waypoints until it is freed. */
        silknav_path_free(path);
    }
    free(paths);
    return 0;
}

int main(int argc, char **argv) {
    if (argc < 3 || argc > 4) {
        fprintf(stderr, "usage: query WORLD cell|height|los|move|path|path-exact|snap [BUDGET] < QUERIES\n");
        return 2;
    }
    const char *command = argv[2];
    int64_t budget = argc == 4 ? strtoll(argv[3], NULL, 10) : -1;
    static const struct {
        const char *name;
        int min, max;
    } arities[] = {{"cell", 2, 3}, {"height", 2, 3}, {"los", 4, 5}, {"move", 4, 5}, {"path", 4, 4}, {"path-exact", 4, 4}, {"snap", 2, 3}};
    int min = 0, max = 0;
    for (size_t i = 0; i < sizeof arities / sizeof arities[0]; i++) {
        if (strcmp(command, arities[i].name) == 0) {
            min = arities[i].min;
            max = arities[i].max;
        }
    }
    if (max == 0) {
        fprintf(stderr, "query: unknown command %s\n", command);
        return 2;
    }

    query *queries = NULL;
    long count = read_queries(&queries);
    if (count < 0) {
        return 2;
    }
    for (long i = 0; i < count; i++) {
        if (queries[i].n < min || queries[i].n > max) {
            fprintf(stderr, "query: query %ld: expected %d to %d numbers\n", i + 1, min, max);
            free(queries);
            return 2;
        }
    }

    silknav_world *world = NULL;
    if (silknav_world_load(argv[1], 0, &world) != SILKNAV_OK) {
        free(queries);
        return fail("load");
    }
    int code = 0;
    if (strcmp(command, "height") == 0) {
        code = answer_heights(world, queries, (size_t)count);
    } else if (strcmp(command, "path") == 0 || strcmp(command, "path-exact") == 0) {
        code = answer_paths(world, queries, (size_t)count, budget, strcmp(command, "path-exact") == 0);
    } else {
        for (long i = 0; i < count && code == 0; i++) {
            if (strcmp(command, "cell") == 0) {
                code = answer_cell(world, &queries[i]);
            } else if (strcmp(command, "los") == 0) {
                code = answer_los(world, &queries[i]);
            } else if (strcmp(command, "snap") == 0) {
                code = answer_snap(world, &queries[i]);
            } else {
                code = answer_move(world, &queries[i]);
            }
        }
    }
    silknav_world_free(world);
    free(queries);
    return code;
}
