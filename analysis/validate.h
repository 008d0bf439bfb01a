/* validate.h - predicted against measured times: the error table of
 * Clement & Quinn (section 5) and the time reduction of Zhang & Xu
 * (Table 11).
 *
 * Copyright (C) 2026 perfpred developers.  GPL-3.0-or-later.
 */
#ifndef PERFPRED_VALIDATE_H
#define PERFPRED_VALIDATE_H

typedef struct {
    double predicted;     /* s */
    double actual;        /* s (the minimum of the repeats)              */
    double lo, hi;        /* interval (s); lo > hi when there is none     */
    double parts[4];      /* its relative errors: costs, host, model,
                             fitted counts                              */
    double error;         /* (predicted - actual) / actual                */
    int inside;           /* -1: no interval; 0/1                         */
} pp_vpoint;

typedef struct {
    int n;
    double mean_abs_error, median_abs_error, max_abs_error;
    double sigma;         /* sqrt(SSE / (n - 3)), SSE of predicted - actual */
    double mean_actual;
    double cov;           /* sigma / mean_actual                          */
    int with_interval, inside;   /* points that had one, and fell in it   */
    double experiment_s;  /* time to measure every point                  */
    double prediction_s;  /* time to predict them                         */
    double reduction;     /* experiment_s / prediction_s                  */
} pp_vsummary;

/* Fill error and inside of each point, and the summary. */
void pp_validate_summarise(pp_vpoint *pts, int n, double experiment_s, double prediction_s, pp_vsummary *s);

#endif
