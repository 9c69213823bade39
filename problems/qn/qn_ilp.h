/* qn_ilp.h: integer programs for two kinds of pieces in a fixed ratio (queens and knights by
   default) where no piece attacks any other, the same kind included. */
#ifndef PQ_QN_ILP_H
#define PQ_QN_ILP_H

#include <stdbool.h>
#include <stdint.h>

#include "../../src/core/board.h"
#include "../../src/lp/lp.h"

/* Column numbering of the qn model on board b (S = b->squares):

     columns 0 .. S-1     x_s: a piece of the first kind on square s;
     columns S .. 2S-1    y_s: a piece of the second kind on square s;
     columns 2S .. C-2    occupancy o_l of a board line l that needs one (below), in board
                          line order, named occ_row3, occ_diag5, ...;
     column C-1           m, the number of groups (ratio_a first + ratio_b second pieces each),
                          0 <= m <= S / (ratio_a + ratio_b), named "m";

   where C = pq_lp_cols(model). All but m are binary. */

/* The column of square s for kind 1 (first) or 2 (second). */
int pq_qn_ilp_square_col(const pq_board *b, int square, int kind);

/* The integer program (caller frees with pq_lp_free): maximise m subject to

     x_s + y_s <= 1 for every square (unless a line row below already says so);
     for every board line l of two or more squares along which some kind attacks (kinds
     "sweeping" l): the sweeping pieces on l form a clique: at most one of them, and no piece of
     a kind that does not sweep l may stand on l beside one. When every kind sweeps l, one row
     sum(sweeping on l) <= 1 (named line_row3, ...); otherwise an occupancy column o_l with
     sum(sweeping on l) - o_l <= 0 and, for each square t of l and each kind not sweeping l,
     piece_t + o_l <= 1 (a clique too, since a square holds one piece): O(|l|) entries per line
     instead of O(|l|^2) pairs, with the same LP strength;
     for K and N (the board's attack tables): a king's squares pairwise conflict within every
     2x2 block, so one row per block sums the kings there; knights, and kings against the other
     kind, get one row per attacking pair p_s + q_t <= 1, left out when a line row above
     already covers the pair;
     sum x - ratio_a m >= 0 (row "count_first"), sum y - ratio_b m >= 0 ("count_second"),
     m >= target (row "target", when target > 0),
     with break_symmetry, the symmetry rows of pq_qn_ilp_decide.

   With target 0 the model serves LP bounds: a certified bound on m below k proves that no
   placement of k groups exists. ratio_a, ratio_b >= 0 with ratio_a + ratio_b >= 1; target >= 0.
   first == second is allowed (then the two kinds are the same piece). */
pq_lp_model *pq_qn_ilp_model(const pq_board *b, pq_piece first, pq_piece second, int ratio_a,
                             int ratio_b, int target, bool break_symmetry);

/* Decides by integer programming whether m * ratio_a pieces of kind first and m * ratio_b of
   kind second can stand on b with no piece attacking another. Returns PQ_OK with *found, and
   when found witness[s] (b->squares bytes) is 0 empty, 1 first kind, 2 second kind, with
   exactly those numbers. Returns PQ_ELIMIT when limits (may be NULL: none; its first_solution is
   not used) stopped it first: its cancellation, time or nodes, PQ_EINTR on pq_interrupted. Symmetry
   is broken as in pq_armies_ilp_decide (counting the pieces of both kinds in each half). Safe to
   call from several threads at once. */
pq_status pq_qn_ilp_decide(const pq_board *b, pq_piece first, pq_piece second, int ratio_a,
                           int ratio_b, int m, const pq_lp_params *limits, bool *found,
                           uint8_t *witness);

#endif
