/* dragsource: a small GTK window that drags files, as a file manager
 * does (text/uri-list), for the window test to drop them on the app under
 * Xvfb, where there is no file manager. Usage: dragsource X Y FILE...
 * It places itself at X,Y, prints "ready" once shown, and "dropped" or
 * "failed" when the drag ends; then it exits. */
#include <gtk/gtk.h>
#include <stdio.h>
#include <stdlib.h>

static gchar **uris;

static void on_get(GtkWidget *w, GdkDragContext *c, GtkSelectionData *d, guint info, guint time, gpointer u) {
    gtk_selection_data_set_uris(d, uris);
}

static void on_end(GtkWidget *w, GdkDragContext *c, gpointer u) {
    printf("dropped\n");
    fflush(stdout);
    gtk_main_quit();
}

static gboolean on_failed(GtkWidget *w, GdkDragContext *c, GtkDragResult r, gpointer u) {
    printf("failed %d\n", (int)r);
    fflush(stdout);
    gtk_main_quit();
    return TRUE;
}

static gboolean on_map(GtkWidget *w, GdkEvent *e, gpointer u) {
    printf("ready\n");
    fflush(stdout);
    return FALSE;
}

int main(int argc, char **argv) {
    gtk_init(&argc, &argv);
    if (argc < 4) {
        fprintf(stderr, "usage: dragsource X Y FILE...\n");
        return 2;
    }
    uris = g_new0(gchar *, argc - 2);
    for (int i = 3; i < argc; i++) {
        uris[i - 3] = g_filename_to_uri(argv[i], NULL, NULL);
        if (uris[i - 3] == NULL) {
            fprintf(stderr, "not an absolute path: %s\n", argv[i]);
            return 2;
        }
    }
    GtkWidget *win = gtk_window_new(GTK_WINDOW_TOPLEVEL);
    gtk_window_set_decorated(GTK_WINDOW(win), FALSE);
    gtk_window_set_default_size(GTK_WINDOW(win), 120, 80);
    gtk_window_move(GTK_WINDOW(win), atoi(argv[1]), atoi(argv[2]));
    GtkWidget *box = gtk_event_box_new();
    gtk_container_add(GTK_CONTAINER(box), gtk_label_new("PDFs"));
    gtk_container_add(GTK_CONTAINER(win), box);
    gtk_drag_source_set(box, GDK_BUTTON1_MASK, NULL, 0, GDK_ACTION_COPY);
    gtk_drag_source_add_uri_targets(box);
    g_signal_connect(box, "drag-data-get", G_CALLBACK(on_get), NULL);
    g_signal_connect(box, "drag-end", G_CALLBACK(on_end), NULL);
    g_signal_connect(box, "drag-failed", G_CALLBACK(on_failed), NULL);
    g_signal_connect(win, "map-event", G_CALLBACK(on_map), NULL);
    gtk_widget_show_all(win);
    gtk_main();
    return 0;
}
