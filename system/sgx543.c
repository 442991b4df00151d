/*
 * The sgx543 machine: an SGX543 with device memory, driven by a scene
 * file (docs/scene-format.md) the way a guest driver would drive it:
 * blobs into memory, register writes, then one kernel-CCB slot per
 * command buffer and an EVENT_KICK.  Device memory is one GuestRAM block
 * at device-physical address 0.  Frames go to ui/ (-display,
 * -frames); with a window, gemu stays up after the scene until the user
 * closes it.  Without -scene it runs the built-in scene: a textured,
 * vertex-coloured mesh drawn by gemu's own USSE programs (assembled at
 * start-up by usse_assemble).
 *
 * SPDX-License-Identifier: MIT
 */
#include "gemu/osdep.h"
#include "gemu/log.h"
#include "block/sgx-scene.h"
#include "hw/sgx543/scene.h"
#include "monitor/monitor.h"
#include "ui/console.h"
#include "machines.h"

#include <math.h>
#include <poll.h>

/* ---- the built-in scene ---- */

#define DEF_W       256
#define DEF_H       256
#define DEF_GRID    8       /* quads per side */

static const char default_programs[] =
    "# vertex: o0..o3 = M * (x, y, 0, 1) (M column-major in sa0..sa15),\n"
    "# o4..o7 = colour, o8..o9 = texture coordinates\n"
    "usse 0x1000\n"
    "    vmov.f32 i0.xy, pa0.xyzw\n"
    "    vpck.f32.f32 i1.xyzw, sa12.xyzw, sa14\n"
    "    vmad4.f32.rm3 i1.xyzw, i0.yyyy, sa4.xyzw, i1.xyzw\n"
    "    vmad4.f32.rm3 o0.xy, i0.xxxx, sa0.xyzw, i1.xyzw\n"
    "    vmad4.f32.rm3 o2.xy, i0.xxxx, sa2.xyzw, i1.zwzw\n"
    "    vmov.f32.rpt2 o4.xy, pa4.xyzw\n"
    "    vmov.f32 o8.xy, pa8.xyzw\n"
    "end\n"
    "# fragment: pa0..3 = texel, pa4..7 = colour; pa0..1 = texel * colour\n"
    "# as four halves\n"
    "usse 0x1100\n"
    "    vpck.f32.f32.nosched i0.xyzw, pa0.xyzw, pa2\n"
    "    vpck.f32.f32 i1.xyzw, pa4.xyzw, pa6\n"
    "    vmul.f16 pa0.xyzw, i1.xyzw, i0.xyzw\n"
    "end\n";

static char *default_scene(void)
{
    GString *t = g_string_new("sgx-scene 1\n# gemu's built-in scene\n");
    const int n = DEF_GRID + 1;
    /* a plane tilted back by 50 degrees, 3 units away, focal length 2 */
    const double a = 50.0 * M_PI / 180.0, d = 3.0, f = 2.0;
    const double m[16] = {
        f, 0, 0, 0,                             /* x */
        0, f * cos(a), sin(a), sin(a),          /* y */
        0, 0, 0, 0,                             /* z */
        0, 0, d - 1.0, d,                       /* 1 */
    };

    g_string_append(t, default_programs);
    g_string_append(t, "reg USE_CODE_BASE_0 0x1000\n");

    g_string_append(t, "data 0x8000 f32\n");
    for (int i = 0; i < 16; i++) {
        g_string_append_printf(t, " %.9g", m[i]);
    }
    g_string_append(t, "\nend\n");

    /* vertices: x, y, r, g, b, a, u, v */
    g_string_append(t, "data 0x10000 f32\n");
    for (int j = 0; j < n; j++) {
        for (int i = 0; i < n; i++) {
            double x = 2.0 * i / DEF_GRID - 1.0, y = 2.0 * j / DEF_GRID - 1.0;
            g_string_append_printf(t, " %.9g %.9g %.9g %.9g %.9g 1 %.9g %.9g\n",
                                   x, y, (x + 1) / 2, (y + 1) / 2,
                                   1.0 - (x + 1) / 4, 2.0 * i / DEF_GRID,
                                   2.0 * j / DEF_GRID);
        }
    }
    g_string_append(t, "end\n");

    g_string_append(t, "data 0x20000 u16\n");
    for (int j = 0; j < DEF_GRID; j++) {
        for (int i = 0; i < DEF_GRID; i++) {
            int v = j * n + i;
            g_string_append_printf(t, " %d %d %d %d %d %d\n", v, v + 1,
                                   v + n, v + 1, v + n + 1, v + n);
        }
    }
    g_string_append(t, "end\n");

    /* an 8x8 checkerboard, white and grey */
    g_string_append(t, "data 0x30000 u32\n");
    for (int j = 0; j < 8; j++) {
        for (int i = 0; i < 8; i++) {
            g_string_append(t, (i ^ j) & 1 ? " 0xff606060" : " 0xffffffff");
        }
        g_string_append(t, "\n");
    }
    g_string_append(t, "end\n");

    g_string_append_printf(t,
        "commands 0x40000\n"
        "    BEGIN_SCENE 0x100000 %d 0 %d %d 0 0x200000 1 %d\n"
        "    CLEAR 0.1 0.1 0.2 1.0 1.0 0 3\n"
        "    SET_PROGRAM_RAW 0 0 0 7 0 0 layout:16:10\n"
        "    SET_PROGRAM_RAW 1 0 32 3 0 0 layout:0:0 output:0:f16 "
        "texture:0:f32:o8:pa0 varying:f32:4:o4:pa4\n"
        "    SET_UNIFORM_BUFFER 0 14 0x8000 64 0\n"
        "    SET_TEXTURE 1 0 tex:U8U8U8U8_ABGR:linear:8:8:0x30000\n"
        "    SET_VERTEX_STREAMS stream:0x10000:32\n"
        "    SET_VERTEX_ATTRIBS attrib:0:0:f32:2:pa0 attrib:0:8:f32:4:pa4 "
        "attrib:0:24:f32:2:pa8\n"
        "    SET_FRAGMENT_OUTPUT 15 0 0 0 0 0 0\n"
        "    SET_RASTER_STATE 0 1 1\n"
        "    SET_VIEWPORT 1 %d.0 %d.0 %d.0 %d.0 1.0 0.0\n"
        "    DRAW 0 0 0x20000 %d\n"
        "    END_SCENE\n"
        "end\n",
        DEF_W, DEF_W, DEF_H, DEF_W, DEF_W / 2, DEF_W / 2, -DEF_H / 2,
        DEF_H / 2, DEF_GRID * DEF_GRID * 6);
    return g_string_free(t, FALSE);
}

/* ---- running a scene ---- */

static void report_errors(Sgx543State *dev, const char *what)
{
    uint32_t code = sgx543_mmio_read(dev, SGX_EMU_ERR_CODE);

    gemu_error("%s: the device reported an error: %s (EMU_ERR_CODE %u), "
               "EVENT_STATUS2 0x%x, packet at 0x%08x, CCB slot %d, "
               "USSE pc 0x%x, BIF_FAULT 0x%08x (-d guest_errors says more)",
               what, sgx_error_name(code), code,
               sgx543_mmio_read(dev, SGX_EVENT_STATUS2),
               sgx543_mmio_read(dev, SGX_EMU_ERR_INFO),
               (int)sgx543_mmio_read(dev, SGX_EMU_ERR_SLOT),
               sgx543_mmio_read(dev, SGX_EMU_ERR_PC),
               sgx543_mmio_read(dev, SGX_BIF_FAULT));
}

static DisplayConsole *sgx543_console(void *opaque, int index)
{
    return index == 0 ? opaque : NULL;
}

static void sgx543_quit(void *opaque)
{
    /* monitor_quit_requested() ends the wait */
}

/*
 * With a window or a monitor, stay up after the scene like a real
 * machine: keep the window drawn and answer the monitor until the user
 * closes the window or says "quit" (or the monitor's stdin ends and no
 * window is open).
 */
static void sgx543_wait_for_quit(Monitor *mon)
{
    while (display_poll() && !(mon && monitor_quit_requested(mon))) {
        struct pollfd fds[MONITOR_MAX_POLLFDS];
        int n = mon ? monitor_pollfds(mon, fds, MONITOR_MAX_POLLFDS) : 0;

        if (!n && !display_has_window()) {
            return;
        }
        n = poll(fds, n, DISPLAY_POLL_INTERVAL_MS);
        if (n < 0 && errno != EINTR) {
            gemu_error("sgx543: poll: %s", strerror(errno));
            return;
        }
        if (n > 0) {
            monitor_dispatch(mon, fds, n);
        }
    }
}

int sgx543_machine_run(const MachineOptions *opts)
{
    g_autofree char *text = NULL;
    g_autofree char *dir = NULL;
    g_autofree char *err = NULL;
    g_autofree uint8_t *ram = NULL;
    GuestRAM *guest_ram = NULL;
    const char *what = opts->scene ? opts->scene : "built-in scene";
    DisplayKind kind;
    g_autofree char *png_prefix = NULL;
    SgxScene *scene;
    Sgx543State *dev;
    DisplayConsole *con;
    const MonitorOps mon_ops = {
        .console = sgx543_console, .quit = sgx543_quit,
    };
    Monitor *mon = NULL;
    int status = 0;

    /* options of the g84 machine are a mistake here, not to be ignored */
    {
        const char *g84_only = opts->vram ? "-vram"
                             : opts->qemu ? "-qemu"
                             : opts->guest ? "-guest"
                             : opts->guest_append ? "-guest-append"
                             : opts->pin_cpu ? "-pin-cpu"
                             : opts->engine_sync ? "-engine-sync" : NULL;

        if (g84_only) {
            gemu_error("sgx543: %s is an option of the g84 machine",
                       g84_only);
            return 1;
        }
    }
    /* a bad -display is the user's typo: say so before any work */
    if (!display_parse_spec(opts->display, &kind, &png_prefix, &err)) {
        gemu_error("%s", err);
        return 1;
    }
    if (opts->scene) {
        g_autoptr(GError) gerr = NULL;
        if (!g_file_get_contents(opts->scene, &text, NULL, &gerr)) {
            gemu_error("%s", gerr->message);
            return 1;
        }
        dir = g_path_get_dirname(opts->scene);
    } else {
        text = default_scene();
    }
    scene = sgx_scene_parse(text, dir, &err);
    if (!scene) {
        gemu_error("%s: %s", what, err);
        return 1;
    }

    ram = g_malloc0(scene->mem_size);
    if (!sgx_scene_load(scene, ram, &err)) {
        gemu_error("%s: %s", what, err);
        sgx_scene_free(scene);
        return 1;
    }

    guest_ram = guest_ram_new();
    guest_ram_add(guest_ram, 0, scene->mem_size, ram);
    dev = sgx543_new(guest_ram);
    con = display_console_new("sgx543");
    if (!display_open(con, opts->display, opts->frames, &err) ||
        (opts->monitor &&
         !(mon = monitor_new(opts->monitor, &mon_ops, con, &err)))) {
        gemu_error("%s", err);
        display_close();
        display_console_free(con);
        sgx543_free(dev);
        guest_ram_free(guest_ram);
        sgx_scene_free(scene);
        return 1;
    }
    sgx543_set_console(dev, con);
    if (!sgx_scene_submit(scene, dev, ram, &err)) {
        gemu_error("%s: %s", what, err);
        status = 1;
    }
    if (sgx543_mmio_read(dev, SGX_EVENT_STATUS2)) {
        report_errors(dev, what);
        status = 1;
    }
    if (display_has_window() || mon) {
        sgx543_wait_for_quit(mon);
    }
    monitor_free(mon);
    if (opts->screendump) {
        const DisplaySurface *s = display_console_surface(con);
        g_autofree char *perr = NULL;

        if (!s) {
            gemu_error("%s: no frame to dump (no END_SCENE ran)", what);
            status = 1;
        } else if (!display_png_write(s, opts->screendump, &perr)) {
            gemu_error("%s", perr);
            status = 1;
        }
    }
    /* the last -frames file, while the device's memory is still there */
    display_close();
    display_console_free(con);
    sgx543_free(dev);
    guest_ram_free(guest_ram);
    sgx_scene_free(scene);
    return status;
}
