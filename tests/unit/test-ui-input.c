/*
 * Keyboard input through the display layer: the key listener a machine
 * registers (ui/input.c), SDL scancodes to QEMU qcode names
 * (ui/sdl2-keymap.c, vectors from SDL's USB-usage scancodes and QEMU's
 * QKeyCode list), and SDL key events in a window on SDL's "dummy" video
 * driver reaching the listener, auto-repeat as repeated downs.
 *
 * SPDX-License-Identifier: MIT
 */
#include "gemu/osdep.h"
#include "ui/console.h"
#include <check.h>
#include <SDL.h>

typedef struct KeyLog {
    GString *s;     /* "+a -a " : down / up per key */
} KeyLog;

static void key_log(void *opaque, const char *qcode, bool down)
{
    KeyLog *kl = opaque;

    g_string_append_printf(kl->s, "%c%s ", down ? '+' : '-', qcode);
}

START_TEST(input_handler)
{
    KeyLog kl = { g_string_new(NULL) };

    /* nobody listening: dropped */
    display_key_event("a", true);
    display_set_key_handler(key_log, &kl);
    display_key_event("a", true);
    display_key_event(NULL, true);
    display_key_event("shift_r", false);
    display_set_key_handler(NULL, NULL);
    display_key_event("b", true);
    ck_assert_str_eq(kl.s->str, "+a -shift_r ");
    g_string_free(kl.s, TRUE);
}
END_TEST

typedef struct KeymapCase {
    int scancode;
    const char *qcode;
} KeymapCase;

static const KeymapCase keymap[] = {
    { SDL_SCANCODE_A, "a" },
    { SDL_SCANCODE_Z, "z" },
    { SDL_SCANCODE_1, "1" },
    { SDL_SCANCODE_9, "9" },
    { SDL_SCANCODE_0, "0" },
    { SDL_SCANCODE_RETURN, "ret" },
    { SDL_SCANCODE_SPACE, "spc" },
    { SDL_SCANCODE_ESCAPE, "esc" },
    { SDL_SCANCODE_BACKSPACE, "backspace" },
    { SDL_SCANCODE_TAB, "tab" },
    { SDL_SCANCODE_MINUS, "minus" },
    { SDL_SCANCODE_EQUALS, "equal" },
    { SDL_SCANCODE_LEFTBRACKET, "bracket_left" },
    { SDL_SCANCODE_RIGHTBRACKET, "bracket_right" },
    { SDL_SCANCODE_GRAVE, "grave_accent" },
    { SDL_SCANCODE_PERIOD, "dot" },
    { SDL_SCANCODE_LSHIFT, "shift" },
    { SDL_SCANCODE_RSHIFT, "shift_r" },
    { SDL_SCANCODE_LCTRL, "ctrl" },
    { SDL_SCANCODE_RCTRL, "ctrl_r" },
    { SDL_SCANCODE_LALT, "alt" },
    { SDL_SCANCODE_RALT, "alt_r" },
    { SDL_SCANCODE_UP, "up" },
    { SDL_SCANCODE_DOWN, "down" },
    { SDL_SCANCODE_LEFT, "left" },
    { SDL_SCANCODE_RIGHT, "right" },
    { SDL_SCANCODE_PAGEUP, "pgup" },
    { SDL_SCANCODE_PAGEDOWN, "pgdn" },
    { SDL_SCANCODE_F1, "f1" },
    { SDL_SCANCODE_F12, "f12" },
    { SDL_SCANCODE_KP_ENTER, "kp_enter" },
    { SDL_SCANCODE_KP_0, "kp_0" },
    { SDL_SCANCODE_NONUSBACKSLASH, "less" },
    /* no qcode: not sent */
    { SDL_SCANCODE_UNKNOWN, NULL },
    { SDL_SCANCODE_F24, NULL },
    { SDL_NUM_SCANCODES, NULL },
    { -1, NULL },
};

START_TEST(input_sdl_keymap)
{
    const KeymapCase *c = &keymap[_i];
    const char *q = sdl2_scancode_to_qcode(c->scancode);

    ck_assert_str_eq(q ? q : "-", c->qcode ? c->qcode : "-");
}
END_TEST

/* Every name is one QEMU can take: lower case, digits, '_'. */
START_TEST(input_sdl_keymap_names)
{
    for (int sc = 0; sc < SDL_NUM_SCANCODES; sc++) {
        const char *q = sdl2_scancode_to_qcode(sc);

        if (!q) {
            continue;
        }
        ck_assert_int_gt(strlen(q), 0);
        for (const char *p = q; *p; p++) {
            ck_assert_msg(g_ascii_islower(*p) || g_ascii_isdigit(*p) ||
                          *p == '_', "scancode %d: '%s'", sc, q);
        }
    }
}
END_TEST

static void push_key(Uint32 type, SDL_Scancode sc, Uint8 repeat)
{
    SDL_Event ev = { .type = type };

    ev.key.state = type == SDL_KEYDOWN ? SDL_PRESSED : SDL_RELEASED;
    ev.key.repeat = repeat;
    ev.key.keysym.scancode = sc;
    ck_assert_int_eq(SDL_PushEvent(&ev), 1);
}

START_TEST(input_sdl_events)
{
    DisplayConsole *con = display_console_new("kbd");
    KeyLog kl = { g_string_new(NULL) };
    g_autofree char *err = NULL;

    g_unsetenv("DISPLAY");
    g_unsetenv("WAYLAND_DISPLAY");
    g_setenv("SDL_VIDEODRIVER", "dummy", TRUE);
    ck_assert_msg(display_open(con, "sdl", NULL, &err), "%s", err);
    display_set_key_handler(key_log, &kl);
    ck_assert(display_poll());
    g_string_truncate(kl.s, 0);

    push_key(SDL_KEYDOWN, SDL_SCANCODE_LSHIFT, 0);
    push_key(SDL_KEYDOWN, SDL_SCANCODE_A, 0);
    /* held: SDL repeats the down, so does the keyboard */
    push_key(SDL_KEYDOWN, SDL_SCANCODE_A, 1);
    push_key(SDL_KEYUP, SDL_SCANCODE_A, 0);
    push_key(SDL_KEYUP, SDL_SCANCODE_LSHIFT, 0);
    push_key(SDL_KEYDOWN, SDL_SCANCODE_F24, 0);
    push_key(SDL_KEYDOWN, SDL_SCANCODE_RETURN, 0);
    push_key(SDL_KEYUP, SDL_SCANCODE_RETURN, 0);
    ck_assert(display_poll());
    ck_assert_str_eq(kl.s->str, "+shift +a +a -a -shift +ret -ret ");

    display_set_key_handler(NULL, NULL);
    display_close();
    display_console_free(con);
    g_string_free(kl.s, TRUE);
}
END_TEST

Suite *ui_input_suite(void)
{
    Suite *s = suite_create("ui-input");
    TCase *tc = tcase_create("keys");

    tcase_add_test(tc, input_handler);
    tcase_add_loop_test(tc, input_sdl_keymap, 0, G_N_ELEMENTS(keymap));
    tcase_add_test(tc, input_sdl_keymap_names);
    tcase_add_test(tc, input_sdl_events);
    suite_add_tcase(s, tc);
    return s;
}
