/* armies_ilp.h: integer programs for peaceable armies: white and black pieces of one kind where
   no piece attacks a piece of the other colour (pieces of one colour may attack each other). */
#ifndef PQ_ARMIES_ILP_H
#define PQ_ARMIES_ILP_H

#include <stdbool.h>
#include <stdint.h>

#include "../../src/core/board.h"
#include "../../src/lp/lp.h"

/* Column numbering of the armies model on board b for piece `piece` (S = b->squares):

     columns 0 .. L-1       line variables ("white uses line"), for line pieces only: the
                            board's lines (board.h numbering) in the piece's directions, in
                            board order: rows and columns for R, the two diagonal directions
                            for B, all four for Q; L = 0 for K and N;
     columns L .. L+S-1     w_s: a white piece on square s;
     columns L+S .. L+2S-1  b_s: a black piece on square s.

   Every column is binary. The helpers below give the numbers. */

/* L: the number of line columns (0 for K and N). */
int pq_armies_ilp_lines(const pq_board *b, pq_piece piece);

/* The column of board line `line` (0 .. b->lines-1), or -1 when the piece does not attack along
   that line's direction (and for K and N). */
int pq_armies_ilp_line_col(const pq_board *b, pq_piece piece, int line);

/* The column of square s for colour 1 (white) or 2 (black). */
int pq_armies_ilp_square_col(const pq_board *b, pq_piece piece, int square, int colour);

/* The integer program (caller frees with pq_lp_free):

     maximise sum_s b_s  subject to
       line pieces: w_s - u_l <= 0 and b_s + u_l <= 1 for every square s and each line l through
                    s in the piece's directions (white only on used lines, black on none);
       K and N:     w_s + b_t <= 1 for every square s and every t the piece on s attacks (the
                    board's attack tables), and w_s + b_s <= 1;
       sum_s w_s >= white   (row "white", when white > 0),
       sum_s b_s >= black   (row "black", when black > 0),
       with break_symmetry, the rows of pq_armies_ilp_decide's symmetry breaking (below).

   ">=" is enough for the counts: dropping a piece from a peaceful placement leaves it peaceful.
   So the model with black = 0 serves LP bounds: a certified bound on the objective below k
   proves that no placement has `white` white and k black pieces. With black > 0 it is the
   feasibility question that --export-lp and --export-mps write. Symmetry rows are sound only
   when no other symmetry reduction is applied to the same space: leave them out of models
   that a proof's cubes cut up. white and black must be in 0 .. b->squares. */
pq_lp_model *pq_armies_ilp_model(const pq_board *b, pq_piece piece, int white, int black,
                                 bool break_symmetry);

/* Decides by integer programming (GLPK) whether `white` white and `black` black pieces of kind
   piece can stand on b with no piece attacking one of the other colour. Returns PQ_OK with
   *found, and when found witness[s] (b->squares bytes) is 0 empty, 1 white, 2 black, with
   exactly white and black pieces. Returns PQ_ELIMIT when limits (may be NULL: none; its
   first_solution is not used) stopped it first: its cancellation, time or nodes, PQ_EINTR on
   pq_interrupted. The model breaks the
   board's symmetry with rows that keep at least one image of every placement: pieces in the left
   half >= pieces in the right half, the same for the top and bottom halves (a reflection swaps the
   halves and changes no colour), and on a square board left-minus-right >= top-minus-bottom (the
   transposition swaps the two differences; apply the reflections first, then it if needed); with
   white == black also white >= black in the left half (row "sym_colours": swapping the colours
   keeps a placement and changes none of the other rows, which count both colours). Safe to
   call from several threads at once. */
pq_status pq_armies_ilp_decide(const pq_board *b, pq_piece piece, int white, int black,
                               const pq_lp_params *limits, bool *found, uint8_t *witness);

/* Writes the integer program of `white` against `black` (no symmetry rows, so that any solver
   may cut it up as it likes) to lp (CPLEX LP format) and mps (MPS), each when not NULL. Returns
   PQ_OK, or PQ_EIO with a message. */
pq_status pq_armies_ilp_export(const pq_board *b, pq_piece piece, int white, int black,
                               const char *lp, const char *mps);

#endif
