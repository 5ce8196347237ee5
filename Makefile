# ptxsurf-as: a standalone PTX assembler and validator.
# Plain GNU Make; `make`, `make check`, `make install PREFIX=... DESTDIR=...`.

PREFIX  ?= /usr/local
BINDIR  ?= $(PREFIX)/bin
MANDIR  ?= $(PREFIX)/share/man/man1
LIBDIR  ?= $(PREFIX)/lib
INCLUDEDIR ?= $(PREFIX)/include
PKGCONFIGDIR ?= $(LIBDIR)/pkgconfig
BASHCOMPDIR ?= $(PREFIX)/share/bash-completion/completions
ZSHCOMPDIR ?= $(PREFIX)/share/zsh/site-functions

CC      ?= cc
FLEX    ?= flex
BISON   ?= bison
PKG_CONFIG ?= pkg-config

# Link-time optimisation lets the parser's and checker's calls into small
# helpers (build_*, arena, intern) inline across files: about 4% fewer
# instructions for --check. GCC only: GNU ar indexes GCC's LTO objects, not
# clang's bitcode. A CFLAGS given on the command line replaces it; LTO= too.
CC_IS_GCC := $(shell $(CC) -dM -E -x c /dev/null 2>/dev/null | \
		      awk '/__clang__/ { c = 1 } /__GNUC__/ { g = 1 } END { if (g && !c) print "yes" }')
LTO     ?= $(if $(CC_IS_GCC),-flto=auto)
CFLAGS  ?= -O2 -g $(LTO)
WARN    := -Wall -Wextra -Wno-unused-parameter
# -iquote, not -I: src/check/check.h must not shadow the Check library's <check.h>.
# Objects serve both libptxsurf.a and libptxsurf.so: position independent
# (as Debian's default PIE is anyway) and hidden but for the ptxsurf_* calls
# marked PTXSURF_API in include/ptxsurf.h.
ALL_CFLAGS = -std=c11 -D_POSIX_C_SOURCE=200809L $(WARN) $(CFLAGS) -fPIC -fvisibility=hidden \
	     -iquote src -iquote $(B)/gen -Iinclude
LDLIBS  ?=

B ?= build

LIB_SRC  := $(filter-out src/driver/main.c,$(wildcard src/*/*.c))
# The SASS front end (lexer/sass.l, grammar/sass.y) joins when it exists.
SASS_GEN := $(if $(wildcard grammar/sass.y),$(B)/gen/sass.tab.c $(B)/gen/sass.lex.c)
GEN_SRC  := $(B)/gen/ptx.tab.c $(B)/gen/ptx_fast.tab.c $(B)/gen/ptx.lex.c $(SASS_GEN)
LIB_OBJ  := $(LIB_SRC:src/%.c=$(B)/obj/%.o) $(GEN_SRC:$(B)/gen/%.c=$(B)/obj/%.o)
LIB      := $(B)/libptxsurf.a
PROG     ?= ptxsurf-as
# The release and the ABI come from include/ptxsurf.h; the SONAME follows the ABI.
api_num   = $(shell sed -n 's/^\#define PTXSURF_$(1) \([0-9]*\)$$/\1/p' include/ptxsurf.h)
VERSION  := $(call api_num,VERSION_MAJOR).$(call api_num,VERSION_MINOR).$(call api_num,VERSION_PATCH)
ABI      := $(call api_num,ABI_VERSION)
SONAME   := libptxsurf.so.$(ABI)
SO_REAL  := libptxsurf.so.$(ABI).$(call api_num,VERSION_MINOR).$(call api_num,VERSION_PATCH)
SO       := $(B)/$(SO_REAL)

UNIT_SRC := $(wildcard tests/unit/test_*.c)
UNIT_BIN := $(UNIT_SRC:tests/unit/%.c=$(B)/tests/%)
CHECK_CFLAGS = $(shell $(PKG_CONFIG) --cflags check 2>/dev/null)
CHECK_LIBS   = $(shell $(PKG_CONFIG) --libs check 2>/dev/null || echo -lcheck -lsubunit -lm -lrt -lpthread)

.PHONY: all check unit unit-bins clean install uninstall deps example bench check-sanitize fuzz
COMPLETIONS := $(B)/completions/ptxsurf-as.bash $(B)/completions/_ptxsurf-as
all: $(PROG) $(SO) $(COMPLETIONS)

# Shell completions: templates filled from the rule, target and release tables.
$(B)/completions/%: completions/%.in tools/gen-completions.sh src/base/rules.def src/isa/targets.def \
		src/isa/cuda_releases.def
	@mkdir -p $(@D)
	sh tools/gen-completions.sh $< > $@.tmp && mv $@.tmp $@

$(PROG): $(B)/obj/driver/main.o $(LIB)
	$(CC) $(ALL_CFLAGS) $(LDFLAGS) -pthread -o $@ $^ $(LDLIBS)

$(LIB): $(LIB_OBJ)
	rm -f $@
	$(AR) rcs $@ $^

# The shared library leaves out what only the command line uses (its
# options, reports and language server): nothing in it prints or exits.
CLI_OBJ  := $(addprefix $(B)/obj/driver/,options.o compat.o report.o rules_doc.o file_pool.o) \
	    $(patsubst src/%.c,$(B)/obj/%.o,$(wildcard src/driver/lsp*.c))
$(SO): $(filter-out $(CLI_OBJ),$(LIB_OBJ)) Makefile
	$(CC) $(ALL_CFLAGS) $(LDFLAGS) -shared -Wl,-soname,$(SONAME) -Wl,-z,defs -o $@ $(filter %.o,$^) $(LDLIBS)
	ln -sf $(SO_REAL) $(B)/$(SONAME)
	ln -sf $(SONAME) $(B)/libptxsurf.so

$(B)/gen/ptx.tab.c $(B)/gen/ptx.tab.h &: grammar/ptx.y
	@mkdir -p $(B)/gen
	$(BISON) -Wall -Werror --defines=$(B)/gen/ptx.tab.h -o $(B)/gen/ptx.tab.c $<

$(B)/gen/ptx.lex.c $(B)/gen/ptx.lex.h &: lexer/ptx.l $(B)/gen/ptx.tab.h
	@mkdir -p $(B)/gen
	$(FLEX) --header-file=$(B)/gen/ptx.lex.h -o $(B)/gen/ptx.lex.c $<

# The same grammar without LAC for --check's first pass (src/front/parse.h): it
# shares ptx.tab.h, LAC changes no table.
$(B)/gen/ptx_fast.tab.c: grammar/ptx.y
	@mkdir -p $(B)/gen
	$(BISON) -Wall -Werror -Fparse.lac=none -o $@ $<

$(B)/gen/sass.tab.c $(B)/gen/sass.tab.h &: grammar/sass.y
	@mkdir -p $(B)/gen
	$(BISON) -Wall -Werror --defines=$(B)/gen/sass.tab.h -o $(B)/gen/sass.tab.c $<

$(B)/gen/sass.lex.c $(B)/gen/sass.lex.h &: lexer/sass.l $(B)/gen/sass.tab.h
	@mkdir -p $(B)/gen
	$(FLEX) --header-file=$(B)/gen/sass.lex.h -o $(B)/gen/sass.lex.c $<

GEN_HDR := $(B)/gen/ptx.tab.h $(B)/gen/ptx.lex.h $(if $(SASS_GEN),$(B)/gen/sass.tab.h $(B)/gen/sass.lex.h)

# Generated scanner code trips a few warnings that are not ours to fix.
$(B)/obj/%.lex.o: $(B)/gen/%.lex.c $(GEN_HDR)
	@mkdir -p $(@D)
	$(CC) $(ALL_CFLAGS) -Wno-sign-compare -Wno-unused-function -MMD -MP -c -o $@ $<

$(B)/obj/ptx_fast.tab.o: $(B)/gen/ptx_fast.tab.c $(GEN_HDR)
	@mkdir -p $(@D)
	$(CC) $(ALL_CFLAGS) -Dptx_parse=ptx_parse_fast -MMD -MP -c -o $@ $<

$(B)/obj/%.tab.o: $(B)/gen/%.tab.c $(GEN_HDR)
	@mkdir -p $(@D)
	$(CC) $(ALL_CFLAGS) -MMD -MP -c -o $@ $<

$(B)/obj/%.o: src/%.c $(GEN_HDR)
	@mkdir -p $(@D)
	$(CC) $(ALL_CFLAGS) -MMD -MP -c -o $@ $<

$(B)/tests/%: tests/unit/%.c $(LIB)
	@mkdir -p $(@D)
	$(CC) $(ALL_CFLAGS) $(CHECK_CFLAGS) -o $@ $< $(LIB) $(CHECK_LIBS)

# The sm_50 simulator of the differential tests (tests/sim, docs/simulator.md):
# test-only code that links the library for the cubin reader and form table.
# The simulator is every tests/sim/*.c but the programs' mains; the mutation
# tool (ptxsurf-mutate) shares nothing with it but the library.
SIM_SRC  := $(filter-out %_main.c,$(wildcard tests/sim/*.c))
SIM_OBJ  := $(SIM_SRC:tests/sim/%.c=$(B)/tests/obj/%.o)
SIM_BIN  := $(B)/tests/ptxsurf-sim $(B)/tests/ptxsurf-mutate

$(B)/tests/obj/%.o: tests/sim/%.c $(GEN_HDR)
	@mkdir -p $(@D)
	$(CC) $(ALL_CFLAGS) -MMD -MP -c -o $@ $<

$(B)/tests/ptxsurf-sim: $(B)/tests/obj/sim_main.o $(SIM_OBJ) $(LIB)
	@mkdir -p $(@D)
	$(CC) $(ALL_CFLAGS) $(LDFLAGS) -o $@ $^ -lm $(LDLIBS)

$(B)/tests/ptxsurf-mutate: $(B)/tests/obj/mutate_main.o $(LIB)
	@mkdir -p $(@D)
	$(CC) $(ALL_CFLAGS) $(LDFLAGS) -o $@ $^ -lm $(LDLIBS)

-include $(wildcard $(B)/obj/*.d $(B)/obj/*/*.d $(B)/tests/obj/*.d)

# ---- tests -------------------------------------------------------------
# `make check` runs every suite and ends with one "N passed, N failed" line.
check: $(PROG) $(SO) $(COMPLETIONS) $(UNIT_BIN) $(SIM_BIN)
	@PROG=$(abspath $(PROG)) B=$(B) LIB_CFLAGS="$(CFLAGS)" LIB_LDFLAGS="$(LDFLAGS)" MAKE="$(MAKE)" \
		sh tests/run-all.sh

unit-bins: $(UNIT_BIN) $(SIM_BIN)

unit: $(UNIT_BIN)
	@for t in $(UNIT_BIN); do $$t || exit 1; done

# The whole suite under ASan+UBSan, then the Check suites under valgrind.
SAN_FLAGS = -O1 -g -fsanitize=address,undefined -fno-omit-frame-pointer -fno-sanitize-recover=all
# The differential oracles sample every STEP-th case here: the full space
# already ran in `make check`, and sanitized binaries are several times slower.
check-sanitize:
	STEP=$${STEP:-8} $(MAKE) B=$(B)/asan PROG=$(B)/asan/ptxsurf-as CFLAGS="$(SAN_FLAGS)" LDFLAGS="$(SAN_FLAGS)" check
	$(MAKE) B=$(B)/vg PROG=$(B)/vg/ptxsurf-as CFLAGS="-O1 -g" all unit-bins
	@sh tests/run-valgrind.sh $(B)/vg/tests

# libFuzzer targets over the whole pipeline and the disassembler (clang).
FUZZ_SECONDS ?= 60
FUZZ_FLAGS = -O1 -g -fsanitize=fuzzer,address,undefined -fno-omit-frame-pointer
fuzz:
	@sh tests/fuzz/run.sh "$(FUZZ_SECONDS)"

example: $(PROG)
	@PROG=$(abspath $(PROG)) B=$(B) sh tools/run-example.sh

bench: $(PROG)
	@PROG=$(abspath $(PROG)) B=$(B) CC="$(CC)" FLEX="$(FLEX)" BENCH_CFLAGS="$(ALL_CFLAGS)" sh bench/run.sh
	@PROG=$(abspath $(PROG)) sh bench/lsp.sh

deps:
	@sh tools/install-deps.sh

# ---- install -----------------------------------------------------------
$(B)/ptxsurf.pc: Makefile include/ptxsurf.h
	@mkdir -p $(@D)
	printf '%s\n' 'prefix=$(PREFIX)' 'libdir=$(LIBDIR)' 'includedir=$(INCLUDEDIR)' '' \
		'Name: ptxsurf' 'Description: PTX assembler and validator library (ptxsurf-as)' \
		'Version: $(VERSION)' 'Libs: -L$${libdir} -lptxsurf' 'Cflags: -I$${includedir}' > $@

# The pc file names PREFIX: rebuild it on every install.
.PHONY: $(B)/ptxsurf.pc
install: $(PROG) $(SO) $(LIB) $(B)/ptxsurf.pc $(COMPLETIONS)
	install -d $(DESTDIR)$(BINDIR) $(DESTDIR)$(MANDIR) $(DESTDIR)$(LIBDIR) $(DESTDIR)$(INCLUDEDIR) \
		$(DESTDIR)$(PKGCONFIGDIR) $(DESTDIR)$(BASHCOMPDIR) $(DESTDIR)$(ZSHCOMPDIR)
	install -m 755 $(PROG) $(DESTDIR)$(BINDIR)/ptxsurf-as
	install -m 644 docs/ptxsurf-as.1 $(DESTDIR)$(MANDIR)/ptxsurf-as.1
	install -m 644 include/ptxsurf.h $(DESTDIR)$(INCLUDEDIR)/ptxsurf.h
	install -m 644 $(LIB) $(DESTDIR)$(LIBDIR)/libptxsurf.a
	install -m 755 $(SO) $(DESTDIR)$(LIBDIR)/$(SO_REAL)
	ln -sf $(SO_REAL) $(DESTDIR)$(LIBDIR)/$(SONAME)
	ln -sf $(SONAME) $(DESTDIR)$(LIBDIR)/libptxsurf.so
	install -m 644 $(B)/ptxsurf.pc $(DESTDIR)$(PKGCONFIGDIR)/ptxsurf.pc
	install -m 644 $(B)/completions/ptxsurf-as.bash $(DESTDIR)$(BASHCOMPDIR)/ptxsurf-as
	install -m 644 $(B)/completions/_ptxsurf-as $(DESTDIR)$(ZSHCOMPDIR)/_ptxsurf-as

uninstall:
	rm -f $(DESTDIR)$(BINDIR)/ptxsurf-as $(DESTDIR)$(MANDIR)/ptxsurf-as.1 \
		$(DESTDIR)$(INCLUDEDIR)/ptxsurf.h $(DESTDIR)$(LIBDIR)/libptxsurf.a \
		$(DESTDIR)$(LIBDIR)/$(SO_REAL) $(DESTDIR)$(LIBDIR)/$(SONAME) $(DESTDIR)$(LIBDIR)/libptxsurf.so \
		$(DESTDIR)$(PKGCONFIGDIR)/ptxsurf.pc $(DESTDIR)$(BASHCOMPDIR)/ptxsurf-as \
		$(DESTDIR)$(ZSHCOMPDIR)/_ptxsurf-as

clean:
	rm -rf $(B) $(PROG)
