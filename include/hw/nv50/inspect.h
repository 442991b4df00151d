/*
 * What a developer inspects of a running card (hw/nv50/inspect.c) and
 * the monitor commands that show it (hw/nv50/monitor-cmds.c; the user's
 * side is docs/monitor.md).  Called on the machine's loop, never on the
 * engine thread; none of them can hang on a busy engine.
 *
 * SPDX-License-Identifier: MIT
 */
#ifndef HW_NV50_INSPECT_H
#define HW_NV50_INSPECT_H

#include "hw/nv50/nv50.h"
#include "monitor/monitor.h"

/* Each set-up channel: GET/PUT, state, what its subchannels hold. */
void nv50_inspect_channels(NV50State *s, GString *out);
/* PGRAPH's status and interrupt registers and its contexts. */
void nv50_inspect_pgraph(NV50State *s, GString *out);
/*
 * @len bytes at @addr: VRAM (@chid < 0) or channel @chid's virtual
 * memory.  False with *err (g_free) if any byte is not there.
 */
bool nv50_inspect_read(NV50State *s, int chid, uint64_t addr, void *buf,
                       size_t len, char **err);

/*
 * The monitor commands of a card (MonitorOps.commands and .info, with
 * MonitorOps.commands_opaque the NV50State): info channels, info pgraph,
 * x, xp, disas, stop, cont.
 */
extern const MonitorCommand nv50_monitor_commands[];
extern const MonitorCommand nv50_monitor_info[];

#endif
